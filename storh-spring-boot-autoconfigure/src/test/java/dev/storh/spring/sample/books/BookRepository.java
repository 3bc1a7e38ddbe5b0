package dev.storh.spring.sample.books;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.query.Query;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.Param;

/**
 * String, collection and nested-property derived queries, and declared JSON queries.
 */
public interface BookRepository extends StorhRepository<Book, String> {

    List<Book> findByTitleContaining(String part);

    List<Book> findByTitleNotContaining(String part);

    List<Book> findByTitleEndingWith(String suffix);

    List<Book> findByTitleLike(String pattern);

    List<Book> findByTitleNotLike(String pattern);

    List<Book> findByTitleMatchesRegex(String regex);

    List<Book> findByTitleRegex(String regex);

    List<Book> findByTitleIgnoreCase(String title);

    List<Book> findByTitleStartingWith(String prefix);

    List<Book> findByTitleStartingWithIgnoreCase(String prefix);

    List<Book> findByTitleContainingAndPublisherNameAllIgnoreCase(String part, String publisher);

    List<Book> findByTags(String tag);

    List<Book> findByTags(List<String> tags);

    List<Book> findByTagsContaining(String tag);

    List<Book> findByTagsNotContaining(String tag);

    List<Book> findByTagsIgnoreCase(String tag);

    List<Book> findByReviewsRating(Integer rating);

    List<Book> findByReviewsRatingExists();

    List<Book> findByPublisher_Name(String name);

    List<Book> findByPublisherName(String name);

    List<Book> findByPublisherNameNot(String name);

    List<Book> findByPagesGreaterThanOrderByPublisherNameDesc(Long pages);

    List<Book> findByPagesGreaterThan(Long pages, Sort sort);

    long countByPublisherCountryIgnoreCase(String country);

    @Query("{\"publisher.country\": ?0, \"pages\": {\"$gt\": ?1}}")
    List<Book> declaredByCountryAndMorePages(String country, Long pages);

    @Query(value = "{\"$or\": [{\"title\": :title}, {\"tags\": :tag}]}", sort = "{\"pages\": -1}")
    List<Book> declaredByTitleOrTag(@Param("title") String title, @Param("tag") String tag);

    @Query(value = "{\"title\": {\"$regex\": ?0, \"$options\": \"i\"}}", count = true)
    long declaredCountTitlesMatching(String regex);

    @Query("{\"title\": {\"$gte\": ?0, \"$lt\": ?1}, \"_id\": {\"$ne\": null}}")
    List<Book> declaredTitlesBetween(String from, String to, Sort sort);

    @Query("{\"publisher.name\": {\"$in\": ?0}, \"reviews.rating\": 5}")
    Page<Book> declaredPublishersWithTopReview(List<String> publishers, Pageable pageable);

    @Query(value = "{\"tags\": {\"$exists\": true, \"$ne\": \"rare\"}}", exists = true)
    boolean declaredAnyWithoutRareTag();

}

package dev.storh.spring.sample.books;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

import org.springframework.data.domain.Sort;

/**
 * String, collection and nested-property derived queries.
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

	List<Book> findByPublisher_Name(String name);

	List<Book> findByPublisherName(String name);

	List<Book> findByPublisherNameNot(String name);

	List<Book> findByPagesGreaterThanOrderByPublisherNameDesc(Long pages);

	List<Book> findByPagesGreaterThan(Long pages, Sort sort);

	long countByPublisherCountryIgnoreCase(String country);

}

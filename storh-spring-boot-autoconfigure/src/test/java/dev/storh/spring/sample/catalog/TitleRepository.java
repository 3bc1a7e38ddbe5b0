package dev.storh.spring.sample.catalog;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/**
 * Derived queries on nested paths, list elements and case-insensitive text.
 */
public interface TitleRepository extends StorhRepository<Title, String> {

    List<Title> findByPublisherName(String name);

    List<Title> findByPublisher_Name(String name);

    List<Title> findByPublisherNameOrderByYearDesc(String name);

    List<Title> findByTags(String tag);

    List<Title> findByTagsContaining(String tag);

    List<Title> findByReviewsRating(Long rating);

    List<Title> findByReviewsRatingGreaterThanEqual(Long rating);

    List<Title> findByAuthorIgnoreCase(String author);

    List<Title> findByAuthorStartingWithIgnoreCase(String prefix);

    Page<Title> findByPublisherName(String name, Pageable pageable);

}

package dev.storh.spring.data.types;

import java.math.BigDecimal;
import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

/**
 * Price queries on the indexed and the unindexed copy of a book's price.
 */
public interface BookRepository extends StorhRepository<Book, String> {

    List<Book> findByPriceBetween(BigDecimal from, BigDecimal to);

    List<Book> findByListPriceBetween(BigDecimal from, BigDecimal to);

    List<Book> findByPrice(BigDecimal price);

    List<Book> findByPriceGreaterThanOrderByPriceAsc(BigDecimal price);

}

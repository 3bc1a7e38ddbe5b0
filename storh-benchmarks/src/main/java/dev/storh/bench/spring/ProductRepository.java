package dev.storh.bench.spring;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/** The derived queries of the Spring side-by-side run, answered from the product indexes. */
public interface ProductRepository extends StorhRepository<Product, String> {

    /**
     * @param category the category
     * @param pageable page, size and sort
     * @return the page with its total
     */
    Page<Product> findByCategory(String category, Pageable pageable);

    /**
     * @param from lowest price, inclusive
     * @param to highest price, inclusive
     * @return the products in the range
     */
    List<Product> findByPriceBetween(long from, long to);

    /**
     * @param brand the brand
     * @return at most 100 products of the brand
     */
    List<Product> findFirst100ByBrand(String brand);

    /**
     * @param brand the brand
     * @return how many products have it
     */
    long countByBrand(String brand);
}

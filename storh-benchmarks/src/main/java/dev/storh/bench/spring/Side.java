package dev.storh.bench.spring;

import java.nio.file.Path;
import java.util.List;

/**
 * One contestant of {@link SpringSideBySide}: the same operations on {@link Product}s, each
 * durable on return. Not thread-safe: the run calls it from one thread.
 */
interface Side extends AutoCloseable {

    /** @return the column name in the printed table */
    String name();

    /**
     * Opens (creating) the side's files in an empty folder.
     * @param dir the folder
     * @throws Exception when it cannot be opened
     */
    void open(Path dir) throws Exception;

    /**
     * Loads products present before the measured operations, by the fastest path the side has.
     * @param batch the products
     * @throws Exception when the load fails
     */
    void load(List<Product> batch) throws Exception;

    /**
     * Makes the loaded products queryable (builds what {@link #load} left out).
     * @throws Exception when it fails
     */
    void ready() throws Exception;

    /**
     * Stores new products (without ids) in one batch.
     * @param batch the products
     * @throws Exception when the batch fails
     */
    void saveAll(List<Product> batch) throws Exception;

    /**
     * @param product a new product without id
     * @return the id it was given
     * @throws Exception when the save fails
     */
    String save(Product product) throws Exception;

    /**
     * @param id a product id
     * @return the product, or {@code null}
     * @throws Exception when the read fails
     */
    Product get(String id) throws Exception;

    /**
     * @param id a product id
     * @throws Exception when the delete fails
     */
    void deleteById(String id) throws Exception;

    /**
     * @param category the category
     * @param page the zero-based page
     * @param size the page size
     * @return the products on the page (the total is computed too, as a Spring {@code Page} does)
     * @throws Exception when the query fails
     */
    int pageByCategorySortedByName(String category, int page, int size) throws Exception;

    /**
     * @param range lowest and highest price, inclusive
     * @return the number of products found
     * @throws Exception when the query fails
     */
    int priceBetween(long[] range) throws Exception;

    /**
     * @param brand the brand
     * @return the number of products found (at most 100)
     * @throws Exception when the query fails
     */
    int firstHundredByBrand(String brand) throws Exception;

    /**
     * @param brand the brand
     * @return how many products have it
     * @throws Exception when the query fails
     */
    long countByBrand(String brand) throws Exception;
}

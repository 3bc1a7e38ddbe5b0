package dev.storh.bench.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic product rows for {@link SpringSideBySide}: prices spread evenly over
 * {@code [0, 1000 × total)} cents, so a price window of {@code 1000 × k} holds about {@code k}
 * products. Not thread-safe.
 */
public final class Products {

    private static final int CATEGORIES = 20;

    private static final int BRANDS = 50;

    private final Random random;

    private final long priceBound;

    private int made;

    /**
     * @param seed the random seed
     * @param total how many products the run will hold (spreads the prices)
     */
    public Products(long seed, int total) {
        this.random = new Random(seed);
        this.priceBound = 1_000L * Math.max(total, 1);
    }

    /**
     * @param count how many
     * @return new products without ids
     */
    public List<Product> next(int count) {
        List<Product> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int n = made++;
            out.add(new Product(null, "name-" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36),
                    category(random.nextInt(CATEGORIES)), random.nextLong(priceBound),
                    "sku-" + n, brand(random.nextInt(BRANDS)), random.nextInt(1_000)));
        }
        return out;
    }

    /**
     * @param i any index
     * @return one of the 20 categories
     */
    public String category(int i) {
        return "category-" + (i % CATEGORIES);
    }

    /**
     * @param i any index
     * @return one of the 50 brands
     */
    public String brand(int i) {
        return "brand-" + (i % BRANDS);
    }

    /**
     * @param i the repetition
     * @param n the products present
     * @param hits about how many products the window should hold
     * @return lowest and highest price, inclusive
     */
    public long[] priceRange(int i, int n, int hits) {
        long low = (i * 7_919L % n) * 1_000L;
        return new long[] { low, low + 1_000L * hits - 1 };
    }
}

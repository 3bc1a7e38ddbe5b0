package dev.storh.sample.cities;

import java.math.BigDecimal;
import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

/** Tours, found by price from the range index. */
public interface TourRepository extends StorhRepository<Tour, String> {

    /**
     * @param from lowest price, inclusive
     * @param to highest price, inclusive
     * @return the tours in the price range, cheapest first
     */
    List<Tour> findByPriceBetweenOrderByPriceAsc(BigDecimal from, BigDecimal to);
}

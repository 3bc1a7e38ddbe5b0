package dev.storh.sample.cities;

import dev.storh.spring.data.repository.StorhRepository;
import java.util.List;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/**
 * Places, with no implementation code: storh's Spring Data support derives every query from its
 * method name and answers it from the {@code country} and {@code name} indexes.
 */
public interface CityRepository extends StorhRepository<City, String> {

    /**
     * @param country ISO code, e.g. {@code RO}
     * @param pageable page and size
     * @return the places of that country in id order, with the total from the country index
     */
    Page<City> findByCountry(String country, Pageable pageable);

    /**
     * @param prefix the start of the name, case-sensitive
     * @param limit the most places to return
     * @return places whose name starts with the prefix, in id order
     */
    List<City> findByNameStartingWith(String prefix, Limit limit);

    /**
     * @param country ISO code
     * @return the number of places of that country, counted from the index
     */
    long countByCountry(String country);

    /**
     * @param country ISO code
     * @return the first ten places of that country by name (UTF-8 byte order)
     */
    List<City> findTop10ByCountryOrderByNameAsc(String country);
}

package dev.storh.sample.cities;

import dev.storh.spring.data.repository.StorhRepository;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/** Places, with no implementation code: storh's Spring Data support provides it. */
public interface CityRepository extends StorhRepository<City, String> {

    /**
     * @param country ISO code, e.g. {@code RO}
     * @param pageable page and size
     * @return the places of that country in id order
     */
    Page<City> findByCountry(String country, Pageable pageable);
}

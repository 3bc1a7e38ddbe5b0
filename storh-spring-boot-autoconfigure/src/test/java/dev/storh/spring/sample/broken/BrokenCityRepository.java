package dev.storh.spring.sample.broken;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.sample.cities.City;

/**
 * Uses a keyword storh does not support: the application must not start.
 */
public interface BrokenCityRepository extends StorhRepository<City, String> {

    List<City> findByNameNear(String name);

}

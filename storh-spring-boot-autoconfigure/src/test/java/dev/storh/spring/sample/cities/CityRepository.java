package dev.storh.spring.sample.cities;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.storh.spring.data.repository.StorhRepository;

import org.springframework.data.domain.Limit;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Window;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;

public interface CityRepository extends StorhRepository<City, String> {

    Page<City> findByCountry(String country, Pageable pageable);

    List<City> findByCountry(String country, Sort sort);

    List<City> findByCountry(String country, Limit limit);

    long countByCountry(String country);

    int countByCoastalTrue();

    boolean existsByCountry(String country);

    List<City> findByPopulationGreaterThan(long population);

    List<City> findByPopulationGreaterThanEqual(long population);

    List<City> findByPopulationLessThan(long population);

    List<City> findByPopulationLessThanEqual(double population);

    List<City> findByPopulationBetween(long from, long to);

    List<City> findByCountryIn(Collection<String> countries);

    List<City> findByCountryNotIn(String... countries);

    List<City> findByCountryNot(String country);

    List<City> findByNameStartingWith(String prefix);

    Window<City> findByCountry(String country, ScrollPosition position, Limit limit);

    Window<City> findFirst2ByCoastalTrue(ScrollPosition position);

    List<City> findByPopulationAfter(long population);

    List<City> findByPopulationBefore(long population);

    List<City> findByCountryIs(String country);

    List<City> findByCountryEquals(String country);

    List<City> findByCountryIsNull();

    List<City> findByCountryIsNotNull();

    List<City> findByCoastalTrue();

    List<City> findByCoastalFalse();

    List<City> findByCountryAndPopulationGreaterThan(String country, long population);

    List<City> findByCountryOrPopulationLessThan(String country, long population);

    List<City> findByIdIn(Collection<String> ids);

    List<City> findTop2ByOrderByPopulationDesc();

    List<City> findTop3ByCountryOrderByNameAsc(String country, Pageable pageable);

    Optional<City> findFirstByCountryOrderByPopulationDesc(String country);

    Optional<City> findByName(String name);

    City findOneByCountry(String country);

    Stream<City> streamByCountryOrderByName(String country);

    Slice<City> findSliceByCountryOrderByName(String country, Pageable pageable);

    long deleteByCountry(String country);

    List<City> removeByCoastalFalse();

    void deleteByName(String name);

}

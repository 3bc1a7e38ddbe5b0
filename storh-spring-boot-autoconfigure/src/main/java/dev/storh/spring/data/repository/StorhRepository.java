package dev.storh.spring.data.repository;

import org.springframework.data.repository.ListCrudRepository;
import org.springframework.data.repository.ListPagingAndSortingRepository;
import org.springframework.data.repository.NoRepositoryBean;

/**
 * A Spring Data repository over one storh collection. Declare
 * {@code interface CityRepository extends StorhRepository<City, String>} and add derived query
 * methods ({@code Page<City> findByCountry(String country, Pageable pageable)}); no code is
 * needed.
 * <p>
 * The id type must be {@code String}: ids are UUIDv7 texts, generated on save when {@code null}.
 * {@code findAll()} and unsorted pages are in ascending id order; unsorted pages read only the
 * records of the page. Implementations are thread-safe.
 *
 * @param <T> the entity type
 * @param <ID> the id type, {@code String}
 */
@NoRepositoryBean
public interface StorhRepository<T, ID> extends ListCrudRepository<T, ID>, ListPagingAndSortingRepository<T, ID> {

}

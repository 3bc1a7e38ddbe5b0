package dev.storh.spring.data.repository;

import org.springframework.data.repository.ListCrudRepository;
import org.springframework.data.repository.ListPagingAndSortingRepository;
import org.springframework.data.repository.NoRepositoryBean;
import org.springframework.data.repository.query.ListQueryByExampleExecutor;

/**
 * A Spring Data repository over one storh collection. Declare
 * {@code interface CityRepository extends StorhRepository<City, String>} and add derived query
 * methods ({@code Page<City> findByCountry(String country, Pageable pageable)}); no code is
 * needed.
 * <p>
 * The id type is {@code String} or {@code java.util.UUID}, matching the entity's id property: ids
 * are UUIDv7s, generated on save when {@code null}; a non-UUIDv7 id is refused with an
 * {@code InvalidDataAccessApiUsageException}.
 * {@code findAll()} and unsorted pages are in ascending id order; unsorted pages read only the
 * records of the page. Query by Example ({@code findAll(Example.of(probe))}) runs through the same
 * planner and indexes: exact or starting string matching, strict equality otherwise.
 * Implementations are thread-safe.
 *
 * @param <T> the entity type
 * @param <ID> the id type, {@code String} or {@code java.util.UUID}
 */
@NoRepositoryBean
public interface StorhRepository<T, ID>
        extends ListCrudRepository<T, ID>, ListPagingAndSortingRepository<T, ID>, ListQueryByExampleExecutor<T> {

}

package dev.storh.sample.cities;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.web.PagedModel;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.storh.StorageException;

/**
 * REST endpoints over {@link CityRepository}:
 * <ul>
 *   <li>{@code GET /cities/{id}}: 200 with the place, 404 when absent (a malformed id names no
 *       place, so it is absent too)</li>
 *   <li>{@code GET /cities?page=0&size=20[&country=RO]}: one page in id order, as
 *       {@code {"content":[...],"page":{"size","number","totalElements","totalPages"}}}</li>
 *   <li>{@code GET /cities/search?prefix=Cluj[&limit=50]}: places whose name starts with the prefix</li>
 *   <li>{@code GET /cities/countries/{country}}: {@code {"country","count","top10"}}, the count and the
 *       first ten names from the indexes</li>
 *   <li>{@code POST /cities}: stores a place (name and country required), answers 201 with the
 *       stored place and its {@code Location}, only after the file is durable</li>
 *   <li>{@code DELETE /cities/{id}}: 204, or 404 when absent or malformed</li>
 *   <li>creating and deleting write a {@code city.created} / {@code city.deleted} event, and creating
 *       enqueues a {@code geocode-check} job ({@link CityActivity}) that {@link GeocodeChecker} handles</li>
 * </ul>
 */
@RestController
@RequestMapping("/cities")
class CityController {

    private static final int MAX_PAGE_SIZE = 1000;

    private final CityRepository cities;
    private final CityActivity activity;

    CityController(CityRepository cities, CityActivity activity) {
        this.cities = cities;
        this.activity = activity;
    }

    @GetMapping("/{id}")
    ResponseEntity<City> get(@PathVariable String id) {
        return ResponseEntity.of(cities.findById(id));
    }

    @GetMapping
    PagedModel<City> list(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "20") int size,
            @RequestParam(required = false) String country) {
        if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page must be >= 0 and size between 1 and " + MAX_PAGE_SIZE);
        }
        PageRequest request = PageRequest.of(page, size);
        Page<City> result = country == null ? cities.findAll(request) : cities.findByCountry(country, request);
        return new PagedModel<>(result);
    }

    @GetMapping("/search")
    List<City> search(@RequestParam String prefix, @RequestParam(defaultValue = "50") int limit) {
        if (prefix.isEmpty() || limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("prefix must not be empty and limit between 1 and " + MAX_PAGE_SIZE);
        }
        return cities.findByNameStartingWith(prefix, Limit.of(limit));
    }

    @GetMapping("/countries/{country}")
    Map<String, Object> country(@PathVariable String country) {
        return Map.of("country", country, "count", cities.countByCountry(country), "top10",
                cities.findTop10ByCountryOrderByNameAsc(country));
    }

    @PostMapping
    ResponseEntity<City> create(@RequestBody City city) {
        if (city.name() == null || city.name().isBlank() || city.country() == null || city.country().isBlank()) {
            throw new IllegalArgumentException("name and country are required");
        }
        if (city.id() != null) {
            throw new IllegalArgumentException("id is assigned by the server; POST without an id");
        }
        City saved = cities.save(city);
        activity.created(saved);
        return ResponseEntity.created(URI.create("/cities/" + saved.id())).body(saved);
    }

    @DeleteMapping("/{id}")
    ResponseEntity<Void> delete(@PathVariable String id) {
        if (!cities.existsById(id)) {
            return ResponseEntity.notFound().build();
        }
        cities.deleteById(id);
        activity.deleted(id);
        return ResponseEntity.noContent().build();
    }

    @ExceptionHandler(StorageException.class)
    ResponseEntity<Map<String, String>> storageError(StorageException e) {
        return ErrorResponses.error(HttpStatus.INTERNAL_SERVER_ERROR, e);
    }
}

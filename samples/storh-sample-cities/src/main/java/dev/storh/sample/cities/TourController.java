package dev.storh.sample.cities;

import java.math.BigDecimal;
import java.net.URI;
import java.util.List;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * REST endpoints over {@link TourRepository}:
 * <ul>
 *   <li>{@code POST /tours}: stores a tour (title and price required), 201 with the stored tour</li>
 *   <li>{@code GET /tours/{id}}: 200, or 404 when absent (a malformed id is absent too)</li>
 *   <li>{@code GET /tours?from=10&to=20.50}: tours in the price range, cheapest first</li>
 * </ul>
 * Prices travel as JSON numbers and are kept exactly.
 */
@RestController
@RequestMapping("/tours")
class TourController {

    private final TourRepository tours;

    TourController(TourRepository tours) {
        this.tours = tours;
    }

    @PostMapping
    ResponseEntity<Tour> create(@RequestBody Tour tour) {
        if (tour.title == null || tour.title.isBlank() || tour.price == null) {
            throw new IllegalArgumentException("title and price are required");
        }
        if (tour.id != null) {
            throw new IllegalArgumentException("id is assigned by the server; POST without an id");
        }
        Tour saved = tours.save(tour);
        return ResponseEntity.created(URI.create("/tours/" + saved.id)).body(saved);
    }

    @GetMapping("/{id}")
    ResponseEntity<Tour> get(@PathVariable String id) {
        return ResponseEntity.of(tours.findById(id));
    }

    @GetMapping
    List<Tour> byPrice(@RequestParam BigDecimal from, @RequestParam BigDecimal to) {
        return tours.findByPriceBetweenOrderByPriceAsc(from, to);
    }
}

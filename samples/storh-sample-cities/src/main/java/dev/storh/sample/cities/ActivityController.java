package dev.storh.sample.cities;

import java.util.List;
import java.util.Map;

import dev.storh.StorageException;
import dev.storh.id.UuidV7;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The {@code events} log and the {@code jobs} queue over REST. {@link GeocodeChecker} consumes
 * {@code jobs} with a {@code @StorhListener}; the claim endpoints stay for people who want to claim
 * by hand (pause the listener through {@code StorhListenerEndpointRegistry} to have every job):
 * <ul>
 *   <li>{@code GET /events?after=<event id>&limit=100}: {@code {"events":[...],"next":<last id or null>}}</li>
 *   <li>{@code POST /jobs/claim}: 200 with the claimed job {@code {"id":..., "kind":"geocode-check", "city":...}},
 *       204 when none is pending</li>
 *   <li>{@code POST /jobs/{id}/complete}: 204, or 409 when the job is not processing</li>
 * </ul>
 */
@RestController
class ActivityController {

    private static final int MAX_LIMIT = 1000;

    private final CityActivity activity;

    ActivityController(CityActivity activity) {
        this.activity = activity;
    }

    @GetMapping("/events")
    Map<String, Object> events(@RequestParam(required = false) String after,
            @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT);
        }
        if (after != null && !UuidV7.isValid(after)) {
            throw new IllegalArgumentException("after is not a UUIDv7: " + after);
        }
        List<Map<String, Object>> events = activity.eventsAfter(after, limit);
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("events", events);
        body.put("next", events.isEmpty() ? after : events.get(events.size() - 1).get("id"));
        return body;
    }

    @PostMapping("/jobs/claim")
    ResponseEntity<Map<String, Object>> claim() {
        return activity.claimJob().map(ResponseEntity::ok).orElseGet(() -> ResponseEntity.noContent().build());
    }

    @PostMapping("/jobs/{id}/complete")
    ResponseEntity<Void> complete(@PathVariable String id) {
        if (!UuidV7.isValid(id)) {
            throw new IllegalArgumentException("not a UUIDv7: " + id);
        }
        activity.completeJob(id);
        return ResponseEntity.noContent().build();
    }

    @ExceptionHandler(StorageException.class)
    ResponseEntity<Map<String, String>> conflict(StorageException e) {
        return ErrorResponses.error(HttpStatus.CONFLICT, e);
    }
}

package dev.storh.sample.cities;

import java.util.Map;

import dev.storh.log.SegmentedLog;
import dev.storh.queue.QueueJob;
import dev.storh.spring.listener.StorhListener;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * Consumes the {@code jobs} queue: each {@code geocode-check} job checks that a new city's
 * coordinates are numbers in range (latitude -90..90, longitude -180..180) and records the
 * outcome in the {@code events} log:
 * <ul>
 *   <li>{@code {"type":"city.geocode-checked","city":...,"lat":...,"lng":...,"attempt":n}} when they are;</li>
 *   <li>{@code {"type":"city.geocode-skipped","city":...,"reason":"deleted"|"no coordinates"}} when the
 *       city is gone or has no coordinates;</li>
 *   <li>coordinates that are not numbers in range throw {@link InvalidCoordinatesException}: the job is
 *       retried with back-off and, after {@code storh.queues.jobs.listener.max-attempts}, moved to the
 *       {@code jobs.dead} queue.</li>
 * </ul>
 * Jobs of other kinds are completed without work. {@code POST /jobs/claim} still lets a person
 * claim jobs by hand: whoever claims first gets the job.
 */
@Component
class GeocodeChecker {

    /** The payload of a {@code jobs} entry, as {@link CityActivity#created} enqueues it. */
    record GeocodeCheck(String kind, String city, String lat, String lng) {
    }

    /** The coordinates of a city are not numbers in range. */
    static class InvalidCoordinatesException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        InvalidCoordinatesException(String message) {
            super(message);
        }
    }

    private final CityRepository cities;
    private final SegmentedLog events;

    GeocodeChecker(CityRepository cities, @Qualifier("events") SegmentedLog events) {
        this.cities = cities;
        this.events = events;
    }

    @StorhListener(queue = "jobs", id = "geocode-check")
    void check(GeocodeCheck check, QueueJob job) {
        if (!"geocode-check".equals(check.kind())) {
            return;
        }
        if (check.city() == null || cities.findById(check.city()).isEmpty()) {
            events.put(Map.of("type", "city.geocode-skipped", "city", String.valueOf(check.city()), "reason", "deleted"));
            return;
        }
        if (blank(check.lat()) && blank(check.lng())) {
            events.put(Map.of("type", "city.geocode-skipped", "city", check.city(), "reason", "no coordinates"));
            return;
        }
        double lat = coordinate(check, check.lat(), 90, "latitude");
        double lng = coordinate(check, check.lng(), 180, "longitude");
        events.put(Map.of("type", "city.geocode-checked", "city", check.city(), "lat", lat, "lng", lng, "attempt",
                (long) job.attempts()));
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank() || value.equals("null");
    }

    private static double coordinate(GeocodeCheck check, String text, double limit, String what) {
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException | NullPointerException e) {
            throw new InvalidCoordinatesException("City " + check.city() + " has a " + what + " that is not a number: "
                    + text);
        }
        if (!(Math.abs(value) <= limit)) {
            throw new InvalidCoordinatesException("City " + check.city() + " has a " + what + " out of range: " + text);
        }
        return value;
    }
}

package dev.storh.sample.cities;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.log.SegmentedLog;
import dev.storh.query.RecordQuery;
import dev.storh.queue.Queue;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * What happens around a city write: an event in the {@code events} log
 * ({@code {"type":"city.created"|"city.deleted","city":<id>}}) and, for a new city, a
 * {@code geocode-check} job in the {@code jobs} queue. Both beans come from
 * {@code storh.logs.events} and {@code storh.queues.jobs} in {@code application.yml}.
 */
@Component
class CityActivity {

    private final SegmentedLog events;
    private final Queue jobs;

    CityActivity(@Qualifier("events") SegmentedLog events, @Qualifier("jobs") Queue jobs) {
        this.events = events;
        this.jobs = jobs;
    }

    /**
     * Records the creation and asks for a geocode check; returns once both are durable.
     *
     * @param city the stored city
     */
    void created(City city) {
        events.put(Map.of("type", "city.created", "city", city.id()));
        jobs.enqueue(Map.of("kind", "geocode-check", "city", city.id(), "lat", String.valueOf(city.lat()),
                "lng", String.valueOf(city.lng())));
    }

    /**
     * @param id the deleted city's id
     */
    void deleted(String id) {
        events.put(Map.of("type", "city.deleted", "city", id));
    }

    /**
     * @param after an event id, or {@code null} to start at the first event
     * @param limit most events returned
     * @return events after {@code after} in id (time) order, each {@code {"id":..., "type":..., "city":...}}
     */
    List<Map<String, Object>> eventsAfter(String after, int limit) {
        RecordQuery query = RecordQuery.all().limit(limit);
        if (after != null) {
            query = query.after(after);
        }
        try (Stream<StorageRecord> records = events.stream(query)) {
            return records.map(CityActivity::flatten).toList();
        }
    }

    /**
     * @return the next pending job, now processing, as {@code {"id":..., <payload>}}
     */
    Optional<Map<String, Object>> claimJob() {
        return jobs.claim().map(CityActivity::flatten);
    }

    /**
     * @param id a claimed job's id
     * @throws dev.storh.StorageException when the job is not processing
     */
    void completeJob(String id) {
        jobs.complete(id);
    }

    private static Map<String, Object> flatten(StorageRecord record) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        map.put("id", record.id());
        map.putAll(record.data());
        return map;
    }
}

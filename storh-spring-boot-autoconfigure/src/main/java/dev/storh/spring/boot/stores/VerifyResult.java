package dev.storh.spring.boot.stores;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one verify of a store.
 *
 * @param at when the verify finished
 * @param ok whether the store verified clean
 * @param errors the problems found, in the engine's wording; empty when {@code ok}
 * @param duration how long the verify took
 * @param repaired whether a repair ran because an earlier verify of the same run failed (this
 * result is then the verify after the repair)
 */
public record VerifyResult(Instant at, boolean ok, List<String> errors, Duration duration, boolean repaired) {

    /**
     * @param at when the verify finished
     * @param ok whether the store verified clean
     * @param errors the problems found
     * @param duration how long the verify took
     * @param repaired whether a repair preceded this verify
     */
    public VerifyResult {
        errors = List.copyOf(errors);
    }

    /**
     * @return a copy marked as the verify that followed a repair
     */
    public VerifyResult afterRepair() {
        return new VerifyResult(this.at, this.ok, this.errors, this.duration, true);
    }

    /**
     * @return {@code at} (ISO-8601), {@code ok}, {@code errors}, {@code durationMs},
     * {@code repaired}
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("at", this.at.toString());
        map.put("ok", this.ok);
        map.put("errors", this.errors);
        map.put("durationMs", this.duration.toMillis());
        map.put("repaired", this.repaired);
        return map;
    }

}

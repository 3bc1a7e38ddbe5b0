package dev.storh.spring.boot.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.storh.mirror.MirrorVerifyReport;
import dev.storh.spring.boot.mirror.StorhMirror;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.util.Assert;

/**
 * Health of the SQL mirror: DOWN when the last push failed or the tables cannot be compared with
 * the stores (e.g. a table is missing), UP otherwise, also while rows lag behind the files (the
 * mirror is a copy that catches up at the next push).
 * <p>
 * Details: {@code lastPush} ({@code at}, {@code durationMs}, and the counters or {@code error}),
 * {@code drift} per collection ({@code missing}, {@code stale}, {@code orphaned} rows; from a
 * verify at most {@code verifyMaxAge} old, since a verify reads every row and record) and
 * {@code inSync} (no drift at all). Thread-safe.
 */
public class StorhMirrorHealthIndicator extends AbstractHealthIndicator {

    private final StorhMirror mirror;

    private final Duration verifyMaxAge;

    /**
     * @param mirror the mirror
     * @param verifyMaxAge how old a cached verify may be
     */
    public StorhMirrorHealthIndicator(StorhMirror mirror, Duration verifyMaxAge) {
        super("storh mirror health check failed");
        Assert.notNull(mirror, "'mirror' must not be null");
        this.mirror = mirror;
        this.verifyMaxAge = verifyMaxAge;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        StorhMirror.LastPush last = this.mirror.lastPush();
        boolean down = false;
        if (last != null) {
            Map<String, Object> push = new LinkedHashMap<>();
            push.put("at", last.at().toString());
            push.put("durationMs", last.duration().toMillis());
            if (last.result() != null) {
                push.putAll(last.result().toMap());
            }
            else {
                push.put("error", last.error());
                down = true;
            }
            builder.withDetail("lastPush", push);
        }
        MirrorVerifyReport report = this.mirror.verify(this.verifyMaxAge);
        Map<String, Object> drift = new LinkedHashMap<>();
        report.stats().forEach((name, s) -> drift.put(name,
                Map.of("missing", s.missing(), "stale", s.stale(), "orphaned", s.orphaned())));
        builder.withDetail("drift", drift).withDetail("inSync", report.ok());
        if (down) {
            builder.down();
        }
        else {
            builder.up();
        }
    }

}

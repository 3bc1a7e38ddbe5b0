package dev.storh.spring.boot.actuate;

import java.time.Duration;

import dev.storh.mirror.FlushResult;
import dev.storh.mirror.PushResult;
import dev.storh.spring.boot.mirror.StorhMirror;
import dev.storh.spring.boot.mirror.StorhMirrorListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.util.Assert;

/**
 * Micrometer timers of the SQL mirror: {@code storh.mirror.push} (tag {@code collection}: the
 * collection or {@code all}) and {@code storh.mirror.flush} (tag {@code collection}), both with tag
 * {@code outcome} {@code success} or {@code failure}.
 */
public class StorhMirrorMetrics implements MeterBinder, StorhMirrorListener {

    private final StorhMirror mirror;

    private volatile MeterRegistry registry;

    /**
     * @param mirror the mirror to time
     */
    public StorhMirrorMetrics(StorhMirror mirror) {
        Assert.notNull(mirror, "'mirror' must not be null");
        this.mirror = mirror;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        this.mirror.addListener(this);
    }

    @Override
    public void pushed(String collection, Duration duration, PushResult result, Throwable failure) {
        record("storh.mirror.push", "Pushes of the storh SQL mirror", (collection != null) ? collection : "all",
                duration, failure);
    }

    @Override
    public void flushed(String collection, Duration duration, FlushResult result, Throwable failure) {
        record("storh.mirror.flush", "Flushes of single records to the storh SQL mirror", collection, duration, failure);
    }

    private void record(String name, String description, String collection, Duration duration, Throwable failure) {
        MeterRegistry r = this.registry;
        if (r != null) {
            Timer.builder(name).description(description).tag("collection", collection)
                .tag("outcome", (failure == null) ? "success" : "failure").register(r).record(duration);
        }
    }

}

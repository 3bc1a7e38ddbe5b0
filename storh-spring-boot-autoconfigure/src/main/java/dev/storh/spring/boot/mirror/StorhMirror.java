package dev.storh.spring.boot.mirror;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.storh.mirror.FlushResult;
import dev.storh.mirror.MirrorVerifyReport;
import dev.storh.mirror.PushResult;
import dev.storh.mirror.SqlMirror;

import org.springframework.util.Assert;

/**
 * An application's {@link SqlMirror} with its recent history: the last push (when, how long, the
 * counters or the failure) and the last verify, for health and metrics. Every push and flush is
 * reported to the {@linkplain #addListener listeners}.
 * <p>
 * Thread-safe: operations may run from request threads (flush after a write), the push schedule
 * and health checks at once; the {@link SqlMirror} serialises work per collection.
 */
public class StorhMirror {

    private final SqlMirror mirror;

    private final List<StorhMirrorListener> listeners = new CopyOnWriteArrayList<>();

    private volatile LastPush lastPush;

    private volatile LastVerify lastVerify;

    /**
     * @param mirror the mirror, with its collections registered
     */
    public StorhMirror(SqlMirror mirror) {
        Assert.notNull(mirror, "'mirror' must not be null");
        this.mirror = mirror;
    }

    /**
     * @return the underlying mirror, e.g. for {@code table(name)} or {@code pull}
     */
    public SqlMirror sqlMirror() {
        return this.mirror;
    }

    /**
     * @param listener told about every later push and flush
     */
    public void addListener(StorhMirrorListener listener) {
        Assert.notNull(listener, "'listener' must not be null");
        this.listeners.add(listener);
    }

    /**
     * Reconciles every mirrored collection with its table ({@link SqlMirror#push()}).
     * @return the counters
     * @throws dev.storh.StorageException when the push fails (remembered as the last push)
     */
    public PushResult push() {
        return push(null);
    }

    /**
     * @param collection a mirrored collection, or {@code null} for all
     * @return the counters
     * @throws dev.storh.StorageException when the push fails (remembered as the last push)
     */
    public PushResult push(String collection) {
        long start = System.nanoTime();
        try {
            PushResult result = this.mirror.push(collection);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            this.lastPush = new LastPush(Instant.now(), took, result, null);
            this.listeners.forEach((l) -> l.pushed(collection, took, result, null));
            return result;
        }
        catch (RuntimeException ex) {
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            this.lastPush = new LastPush(Instant.now(), took, null, ex.getMessage());
            this.listeners.forEach((l) -> l.pushed(collection, took, null, ex));
            throw ex;
        }
    }

    /**
     * Writes only the given ids of one collection ({@link SqlMirror#flush}).
     * @param collection a mirrored collection
     * @param ids record ids
     * @return the counters
     */
    public FlushResult flush(String collection, Collection<String> ids) {
        long start = System.nanoTime();
        try {
            FlushResult result = this.mirror.flush(collection, ids);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            this.listeners.forEach((l) -> l.flushed(collection, took, result, null));
            return result;
        }
        catch (RuntimeException ex) {
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            this.listeners.forEach((l) -> l.flushed(collection, took, null, ex));
            throw ex;
        }
    }

    /**
     * Compares every mirrored collection with its table now and remembers the result.
     * @return the report
     */
    public MirrorVerifyReport verify() {
        MirrorVerifyReport report = this.mirror.verify();
        this.lastVerify = new LastVerify(Instant.now(), report);
        return report;
    }

    /**
     * The last verify when it is at most {@code maxAge} old, else a new one.
     * @param maxAge the oldest acceptable result
     * @return the report
     */
    public MirrorVerifyReport verify(Duration maxAge) {
        LastVerify last = this.lastVerify;
        if (last != null && last.at().plus(maxAge).isAfter(Instant.now())) {
            return last.report();
        }
        return verify();
    }

    /**
     * @return the last push, or {@code null} before the first
     */
    public LastPush lastPush() {
        return this.lastPush;
    }

    /**
     * The outcome of a push.
     * @param at when it ended
     * @param duration how long it took
     * @param result the counters, or {@code null} when it failed
     * @param error the failure's message, or {@code null}
     */
    public record LastPush(Instant at, Duration duration, PushResult result, String error) {
    }

    private record LastVerify(Instant at, MirrorVerifyReport report) {
    }

}

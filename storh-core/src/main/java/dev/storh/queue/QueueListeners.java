package dev.storh.queue;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The callbacks a queue instance runs after it made new claimable jobs durable (enqueue, release,
 * an undelayed retry), on the caller's thread, in the order they were added; one that throws is
 * logged and skipped. Thread-safe.
 */
final class QueueListeners {

    private static final Logger LOG = LoggerFactory.getLogger(QueueListeners.class);

    private final Path directory;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    QueueListeners(Path directory) {
        this.directory = directory;
    }

    void add(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void remove(Runnable listener) {
        listeners.remove(listener);
    }

    void fire() {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("Enqueue listener of {} failed", directory, e);
            }
        }
    }
}

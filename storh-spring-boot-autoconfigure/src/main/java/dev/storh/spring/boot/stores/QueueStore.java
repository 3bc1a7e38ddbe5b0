package dev.storh.spring.boot.stores;

import java.time.Duration;

import dev.storh.queue.Queue;
import dev.storh.store.RepairReport;

/**
 * A job queue in a {@link StorhStores} registry. Queues keep no writer markers.
 */
public final class QueueStore extends StorhStore {

    private final Duration processingTimeout;

    QueueStore(String name, Queue queue, Duration processingTimeout, boolean owned) {
        super(name, owned, queue);
        this.processingTimeout = processingTimeout;
    }

    /**
     * @return the queue
     */
    public Queue queue() {
        return (Queue) engine();
    }

    /**
     * @return the least claim age at which {@link #repair()} puts a processing job back to pending
     */
    public Duration processingTimeout() {
        return this.processingTimeout;
    }

    @Override
    RepairReport<?> repairEngine() {
        return queue().repair(this.processingTimeout);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
        return visitor.queue(this);
    }

}

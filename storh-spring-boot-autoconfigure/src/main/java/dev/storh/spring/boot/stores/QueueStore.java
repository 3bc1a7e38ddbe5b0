package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.storh.queue.Queue;
import dev.storh.queue.QueueStats;
import dev.storh.progress.ProgressListener;
import dev.storh.store.VerifyReport;

/**
 * A job queue in a {@link StorhStores} registry. Queues keep no writer markers.
 */
public final class QueueStore extends StorhStore {

	private final Queue queue;

	private final Duration processingTimeout;

	QueueStore(String name, Queue queue, Duration processingTimeout, boolean owned) {
		super(StoreType.QUEUE, name, owned);
		this.queue = queue;
		this.processingTimeout = processingTimeout;
	}

	/**
	 * @return the queue
	 */
	public Queue queue() {
		return this.queue;
	}

	/**
	 * @return the least claim age at which {@link #repair()} puts a processing job back to pending
	 */
	public Duration processingTimeout() {
		return this.processingTimeout;
	}

	@Override
	public Path path() {
		return this.queue.directory().toAbsolutePath();
	}

	@Override
	public AutoCloseable engine() {
		return this.queue;
	}

	@Override
	VerifyResult doVerify(ProgressListener progress) {
		long start = System.nanoTime();
		VerifyReport<QueueStats> report = this.queue.verify(progress);
		return result(report.ok(), report.errors(), start);
	}

	@Override
	Map<String, Object> doRepair() {
		return this.queue.repair(this.processingTimeout).toMap();
	}

	@Override
	Map<String, Object> doCompact() {
		return this.queue.compact().toMap();
	}

}

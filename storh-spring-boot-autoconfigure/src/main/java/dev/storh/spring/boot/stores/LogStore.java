package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.storh.log.LogVerifyReport;
import dev.storh.log.SegmentedLog;
import dev.storh.progress.ProgressListener;

/**
 * A segmented log in a {@link StorhStores} registry.
 */
public final class LogStore extends StorhStore {

	private final SegmentedLog log;

	private final Integer retentionDays;

	LogStore(String name, SegmentedLog log, Integer retentionDays, boolean owned) {
		super(StoreType.LOG, name, owned);
		this.log = log;
		this.retentionDays = retentionDays;
	}

	/**
	 * @return the log
	 */
	public SegmentedLog log() {
		return this.log;
	}

	/**
	 * @return the retention in days applied by {@link #compact()}, or {@code null}
	 */
	public Integer retentionDays() {
		return this.retentionDays;
	}

	@Override
	public Path path() {
		return this.log.collectionDir().toAbsolutePath();
	}

	@Override
	public AutoCloseable engine() {
		return this.log;
	}

	@Override
	VerifyResult doVerify(ProgressListener progress) {
		long start = System.nanoTime();
		LogVerifyReport report = this.log.verify(progress);
		return result(report.ok(), report.errors(), start);
	}

	@Override
	Map<String, Object> doRepair() {
		int stale = removeStaleWriters();
		Map<String, Object> report = new LinkedHashMap<>(this.log.repair().toMap());
		report.put("staleWritersRemoved", stale);
		return report;
	}

	@Override
	Map<String, Object> doCompact() {
		Map<String, Object> report = new LinkedHashMap<>();
		report.put("ok", true);
		if (this.retentionDays != null) {
			report.put("retentionDays", this.retentionDays);
			report.put("expired", this.log.retain().olderThanDays(this.retentionDays).compact());
		}
		else {
			this.log.compact();
		}
		report.put("stats", this.log.stats().toMap());
		return report;
	}

}

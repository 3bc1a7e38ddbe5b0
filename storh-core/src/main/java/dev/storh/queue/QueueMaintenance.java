package dev.storh.queue;

import dev.storh.StorageException;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue's housekeeping on its {@link QueueJournal}: statistics, verify (replay into a scratch state
 * and compare), repair (cut the tail, take damage out, requeue stale claims), compaction, timed-out
 * requeues and purges of done jobs. Each call takes the queue lock once. Thread-safe.
 */
final class QueueMaintenance {

    private static final Logger LOG = LoggerFactory.getLogger(QueueMaintenance.class);

    private final QueueJournal journal;

    QueueMaintenance(QueueJournal journal) {
        this.journal = journal;
    }

    QueueCounts counts() {
        return journal.locked(() -> {
            journal.sync(false);
            return journal.state().counts();
        });
    }

    QueueStats stats() {
        return journal.locked(() -> {
            journal.sync(false);
            return statsLocked();
        });
    }

    private QueueStats statsLocked() {
        QueueCounts c = journal.state().counts();
        long bytes;
        try {
            bytes = journal.log().sizeNamed();
        } catch (IOException e) {
            bytes = journal.offset();
        }
        return new QueueStats(c.pending(), c.processing(), c.done(), bytes);
    }

    VerifyReport<QueueStats> verify(ProgressListener listener) {
        return journal.locked(() -> {
            QueueLogFile log = journal.log();
            List<String> errors = new ArrayList<>();
            QueueState scratch = new QueueState();
            ProgressTracker progress = ProgressTracker.start("verify", -1, journal.offset(), listener);
            long[] events = {0};
            long read = 0;
            boolean readable = true;
            try {
                QueueLogScanner.Scan scan = log.readNamed(journal.nowSeconds(), event -> {
                    scratch.apply(event);
                    events[0]++;
                });
                read = scan.end();
                for (QueueLogScanner.Damage d : scan.damaged()) {
                    errors.add(where(d.line(), d.offset()) + d.problem() + " (" + d.length()
                            + " damaged bytes skipped; the events after them are kept; repair() removes them)");
                }
                if (scan.error() != null) {
                    errors.add(where(scan.endLine(), scan.end()) + scan.error());
                }
            } catch (IOException | RuntimeException e) {
                readable = false;
                errors.add("Could not read log queue file. " + log.path() + ": " + e);
            }
            progress.advance(events[0], read);
            progress.finish();
            try {
                journal.sync(false);
                if (readable && !journal.state().sameAs(scratch)) {
                    errors.add("Log queue state drift.");
                }
            } catch (RuntimeException e) {
                errors.add("Could not read log queue file. " + log.path() + ": " + e);
                return new VerifyReport<>(false, errors, new QueueStats(0, 0, 0, 0));
            }
            return new VerifyReport<>(errors.isEmpty(), errors, statsLocked());
        });
    }

    private String where(long line, long byteOffset) {
        return "line " + line + " (byte " + byteOffset + " of " + journal.log().path() + "): ";
    }

    RepairReport<QueueRepair> repair(Duration processingTimeout, ProgressListener listener) {
        long seconds = wholeSeconds(processingTimeout, "processingTimeout");
        return journal.locked(() -> {
            journal.checkWritable();
            ProgressTracker progress = ProgressTracker.start("repair", -1, journal.offset(), listener);
            try {
                journal.log().deleteLeftovers();
                List<String> removed = new ArrayList<>();
                QueueLogFile.Cut cut = journal.reload(true);
                if (cut.bytes() > 0) {
                    removed.add(journal.log().path() + ":" + journal.offset() + ": " + cut.bytes() + " bytes at the end"
                            + (cut.keptIn() == null ? " (a torn line)" : ", kept in " + cut.keptIn().getFileName()));
                }
                if (!journal.damaged().isEmpty()) {
                    List<String> taken = journal.removeDamaged();
                    removed.addAll(taken);
                    LOG.warn("Removed {} damaged stretch(es) from {}: {}", removed.size(), journal.log().path(), removed);
                }
                int requeued = requeueLocked(seconds);
                progress.advance(journal.lines(), journal.offset());
                return new RepairReport<>(true, removed, new QueueRepair(requeued, cut.bytes()));
            } finally {
                progress.finish();
            }
        });
    }

    CompactReport<QueueCompact> compact(ProgressListener listener) {
        return journal.locked(() -> {
            journal.sync(true);
            long before = journal.offset();
            ProgressTracker progress = ProgressTracker.start("compact", -1, before, listener);
            try {
                journal.compact();
                progress.advance(journal.lines(), journal.offset());
                return new CompactReport<>(true, before, journal.offset(),
                        new QueueCompact(before, journal.offset(), journal.lines()));
            } finally {
                progress.finish();
            }
        });
    }

    int requeueTimedOut(Duration timeout) {
        long seconds = wholeSeconds(timeout, "timeout");
        if (journal.nothingProcessing()) {
            return 0; // the cheap no-op: no lock, no read of the log
        }
        return journal.locked(() -> {
            journal.sync(true);
            return requeueLocked(seconds);
        });
    }

    private int requeueLocked(long seconds) {
        return writeForEach(QueueState.Status.PROCESSING, seconds, QueueEvent::requeue);
    }

    int purgeDone(Duration olderThan) {
        long seconds = wholeSeconds(olderThan, "olderThan");
        return journal.locked(() -> {
            journal.sync(true);
            return writeForEach(QueueState.Status.DONE, seconds, QueueEvent::purge);
        });
    }

    /** Writes one event for each job that has had {@code status} for at least {@code seconds}, in one batch. */
    private int writeForEach(QueueState.Status status, long seconds, BiFunction<String, Long, QueueEvent> event) {
        long now = journal.nowSeconds();
        QueueState state = journal.state();
        List<String> ids = state.idsWithStatus(status, now, seconds);
        QueueOp.Batch batch = new QueueOp.Batch();
        ids.forEach(id -> batch.apply(state, event.apply(id, now)));
        journal.commit(batch);
        return ids.size();
    }

    void dropPendingForTesting() {
        journal.locked(() -> {
            journal.sync(false);
            journal.state().dropPendingForTesting();
            return null;
        });
    }

    Map<String, String> statusesForTesting() {
        return journal.locked(() -> {
            journal.sync(false);
            Map<String, String> statuses = new LinkedHashMap<>();
            journal.state().pendingJobs().forEach(j -> statuses.put(j.id, "pending"));
            journal.state().settledJobs().forEach(j -> statuses.put(j.id,
                    j.status == QueueState.Status.DONE ? "done" : "processing"));
            return statuses;
        });
    }

    /**
     * @return the duration in whole seconds, rounded up
     * @throws StorageException {@code "Queue <name> must not be negative or null, got <d>"}
     */
    static long wholeSeconds(Duration d, String name) {
        if (d == null || d.isNegative()) {
            throw new StorageException("Queue " + name + " must not be negative or null, got " + d);
        }
        long seconds = d.getSeconds();
        return d.getNano() > 0 ? seconds + 1 : seconds;
    }
}

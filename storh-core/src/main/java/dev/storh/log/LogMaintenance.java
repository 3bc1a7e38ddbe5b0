package dev.storh.log;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.query.RecordQuery;
import dev.storh.store.CompactReport;
import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The maintenance of a {@link SegmentedLog}: compaction ({@link Compactor}), retention (tombstones
 * in one batch, then a compaction), recovery, repair ({@link Leftovers}, {@link Quarantine}) and
 * verify. Every change runs under the collection lock; verify changes nothing. Thread-safe.
 */
final class LogMaintenance {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SegmentedLog.class);

    private final LogContext log;
    private final LogReads reads;
    private final LogAppends appends;

    LogMaintenance(LogContext log, LogReads reads, LogAppends appends) {
        this.log = log;
        this.reads = reads;
        this.appends = appends;
    }

    CompactReport<LogCompaction> compact(ProgressListener listener) {
        LogState state = log.state;
        long[] before = new long[2];
        log.withWriteLock("compact log", () -> {
            state.refresh(true, -1);
            refuseToCompactLosses(state);
            state.roll();
            before[0] = state.bytes();
            before[1] = state.sealed.size() + 1L;
            long bytes = 0;
            for (Segment s : state.sealed) {
                bytes += state.size(s.file);
            }
            ProgressTracker progress = ProgressTracker.start("compact", state.sealed.size(), bytes, listener);
            long known = state.presence.beforeOwnChange();
            try {
                new Compactor(state, log.options.maxSegmentBytes()).run(progress);
                state.presence.afterOwnChange(known);
            } finally {
                progress.finish();
            }
        });
        LogStats after = log.stats();
        return new CompactReport<>(true, before[0], after.bytes(),
                new LogCompaction(before[0], after.bytes(), before[1], after.segments(), after));
    }

    /**
     * A compaction rewrites the sealed segments from what they hold now: it would make the loss of a
     * sealed segment cut short, damaged or missing permanent and silent. It is refused until a repair
     * accepts the loss (and reports it).
     *
     * @throws StorageException {@code "Could not compact log <dir>: ..."} naming the segment; nothing changed
     */
    private static void refuseToCompactLosses(LogState state) {
        for (Segment s : state.sealed) {
            if (!state.isFile(LogFiles.segment(s.file))) {
                throw new StorageException("Could not open segment: " + state.path(s.file) + " (" + missingSegmentError(state, s)
                        + "; a compaction would drop its records for good; nothing changed)");
            }
            if (s.lostRecords() > 0) {
                throw new StorageException("Could not compact log " + state.dir + ": a compaction would make this loss"
                        + " permanent and silent; nothing changed: " + lostLinesError(state, s));
            }
        }
    }

    long deleteOlderThanAndCompact(long cutoffMs) {
        log.refreshIfStale();
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, StateIndex.Entry> e : log.state.index.entries().entrySet()) {
            String id = e.getKey();
            if (!e.getValue().deleted() && UuidV7.isValid(id) && UuidV7.timestampMs(id) <= cutoffMs) {
                ids.add(id);
            }
        }
        ids.sort(null);
        appends.deleteAll(ids);
        compact(ProgressListener.NONE);
        return ids.size();
    }

    void recover() {
        log.withWriteLock("recover log", () -> {
            log.state.load(true);
            log.state.writeManifest();
        });
    }

    VerifyReport<LogStats> verify(ProgressListener listener) {
        LogState state = log.state;
        List<String> errors = new ArrayList<>();
        Set<String> damagedAt = new HashSet<>();
        ProgressTracker progress = ProgressTracker.start("verify", state.sealed.size() + 1L, state.bytes(), listener);
        try {
            log.refreshIfStale();
            List<Segment> segments = log.allSegments();
            progress.total(segments.size(), state.bytes());
            List<String> suspect = new ArrayList<>();
            ManifestShape.problems(state.files).forEach(p -> errors.add("Damaged log manifest " + state.manifestPath() + ": " + p
                    + " (open rewrites the keys it can; put the others back by hand)"));
            StateIndex fresh = scan(state, segments, progress, copy -> {
                if (copy.index != null && !state.isFile(LogFiles.segment(copy.file))) {
                    errors.add(missingSegmentError(state, copy));
                    return;
                }
                for (Segment.Damage d : copy.damaged) {
                    damagedAt.add(state.path(copy.file) + ":" + d.offset());
                    errors.add("Damaged log line at " + state.path(copy.file) + ":" + d.offset() + " (" + d.length()
                            + " bytes; the lines after it are kept; repair() removes it): " + d.problem());
                }
                if (copy.lostRecords() > 0) {
                    errors.add(lostLinesError(state, copy));
                }
                String sparse = sparseIndexError(state, copy);
                if (sparse != null) {
                    errors.add(sparse);
                }
            });
            addDrift(state, fresh, suspect);
            if (!suspect.isEmpty()) {
                // appends may have landed between the scan and the comparison: look again with writers held off
                suspect.clear();
                log.withLock(() -> {
                    state.refresh(false, -1);
                    addDrift(state, scan(state, log.allSegments(), ProgressTracker.none(), copy -> { }), suspect);
                });
                errors.addAll(suspect);
            }
        } catch (RuntimeException e) {
            errors.add(String.valueOf(e.getMessage()));
        }
        RecordQuery everything = RecordQuery.all().continueOnError((at, e) -> {
            if (!damagedAt.contains(at)) {
                errors.add(String.valueOf(e.getMessage()));
            }
        });
        try (Stream<StorageRecord> all = reads.stream(everything)) {
            all.forEach(r -> { });
        } catch (RuntimeException e) {
            errors.add(String.valueOf(e.getMessage()));
        } finally {
            progress.finish();
        }
        LogStats stats;
        try {
            log.refreshIfStale();
            stats = log.stats();
        } catch (RuntimeException e) {
            stats = new LogStats(state.sealed.size() + 1L, 0, 0, 0);
        }
        return new VerifyReport<>(errors.isEmpty(), errors, stats);
    }

    RepairReport<LogRepair> repair(ProgressListener listener) {
        LogState state = log.state;
        ProgressTracker progress = ProgressTracker.start("repair", 1, state.bytes(), listener);
        try {
            long before = state.bytesCut;
            List<String> removed = new ArrayList<>();
            log.withWriteLock("repair log", () -> {
                Leftovers.sweepTemps(state);
                state.load(false); // bad tails stay, to leave each segment in one rewrite with its other damage
                List<String> lost = new ArrayList<>();
                for (Segment s : state.sealed) {
                    if (s.lostRecords() > 0 && state.isFile(LogFiles.segment(s.file))) {
                        lost.add(lostLinesError(state, s) + "; the manifest counts what is left now");
                    }
                }
                List<Segment> damaged = new ArrayList<>();
                for (Segment s : log.allSegments()) {
                    List<Segment.Damage> stretches = new ArrayList<>(s.damaged);
                    if (s.badTail != null) {
                        stretches.add(s.badTail);
                    }
                    if (stretches.isEmpty()) {
                        continue;
                    }
                    try {
                        removed.addAll(Quarantine.removeDamage(state, s.file, stretches));
                    } catch (StorageException e) {
                        if (removed.isEmpty()) {
                            throw e; // nothing changed yet
                        }
                        throw new StorageException(e.getMessage() + " (this repair had already removed: " + removed
                                + ")", e);
                    }
                    if (s.badTail != null) {
                        state.bytesCut += s.badTail.length();
                    }
                    damaged.add(s);
                }
                if (damaged.isEmpty()) {
                    state.load(true); // cuts torn tails (without a complete line: nothing to keep aside)
                    acceptLostLines(state, lost, removed);
                    rewriteDamagedSparseIndexes(state, removed);
                    state.writeManifest();
                    return;
                }
                // past undoing: the segments are cut; what follows only refreshes derived files
                try {
                    afterCut(state, damaged, lost, removed);
                    rewriteDamagedSparseIndexes(state, removed);
                } catch (StorageException e) {
                    state.rebuild = true;
                    LOG.warn("Repaired log {} (removed {}), but could not rewrite its sparse indexes or manifest"
                            + " (the next open rebuilds them from the segments): {}", log.dir, removed, e.getMessage());
                }
                LOG.warn("Removed {} damaged stretch(es) from log {}: {}", removed.size(), log.dir, removed);
            });
            progress.advance(1, state.bytes());
            log.refreshIfStale();
            return new RepairReport<>(true, removed, new LogRepair(state.bytesCut - before, log.stats()));
        } finally {
            progress.finish();
        }
    }

    /** Rescans the rewritten segments, rewrites their sparse indexes (their offsets moved) and the manifest. */
    private static void afterCut(LogState state, List<Segment> damaged, List<String> lost, List<String> removed) {
        state.load(true);
        acceptLostLines(state, lost, removed);
        for (Segment s : state.sealed) {
            if (s.index != null && damaged.stream().anyMatch(d -> d.file.equals(s.file))) {
                SparseIndex.write(state.files, LogFiles.segment(s.index), s.sparse);
            }
        }
        state.writeManifest(true);
    }

    /**
     * @param s a segment (sealed ones have a sparse index)
     * @return verify's error for a damaged sparse index of a sealed segment, or {@code null}
     */
    private static String sparseIndexError(LogState state, Segment s) {
        if (s.index == null) {
            return null;
        }
        String problem = SparseIndex.problem(state.files, LogFiles.segment(s.index), LogFiles.segment(s.file));
        return problem == null ? null
                : "Damaged sparse index " + state.path(s.index) + " (repair() rewrites it from its segment): it " + problem;
    }

    private static String missingSegmentError(LogState state, Segment s) {
        return "Sealed log segment missing: " + state.path(s.file) + " (the manifest counts " + Math.max(0, s.claimedRecords)
                + " records in it; reads that reach it fail; repair() drops it from the manifest and accepts the loss)";
    }

    private static String lostLinesError(LogState state, Segment s) {
        return "Lines missing from sealed log segment " + state.path(s.file) + ": the manifest counts " + s.claimedRecords
                + ", the segment holds " + s.records + " (cut short or damaged; repair() removes the damage and accepts the loss)";
    }

    /**
     * Makes the manifest count the lines each sealed segment holds now (the lines this repair removed
     * as damage included), adding the losses found before the repair to {@code removed}.
     */
    private static void acceptLostLines(LogState state, List<String> lost, List<String> removed) {
        List<Segment> present = new ArrayList<>();
        for (Segment s : state.sealed) {
            if (state.isFile(LogFiles.segment(s.file))) {
                present.add(s);
            } else {
                lost.add(missingSegmentError(state, s) + "; dropped from the manifest");
            }
            s.claimedRecords = -1;
        }
        if (present.size() < state.sealed.size()) {
            state.replaceSealed(present);
        }
        lost.forEach(line -> LOG.warn("{}", line));
        removed.addAll(lost);
    }

    /** Rewrites each damaged sparse index from its (just scanned) segment, naming it in {@code rewritten}. */
    private static void rewriteDamagedSparseIndexes(LogState state, List<String> rewritten) {
        for (Segment s : state.sealed) {
            String error = sparseIndexError(state, s);
            if (error != null) {
                SparseIndex.write(state.files, LogFiles.segment(s.index), s.sparse);
                rewritten.add(error + "; rewritten");
                LOG.warn("{}; rewritten", error);
            }
        }
    }

    /** Scans copies of the segments into a fresh state index, cutting nothing; each copy goes to {@code scanned}. */
    private static StateIndex scan(LogState state, List<Segment> segments, ProgressTracker progress,
            java.util.function.Consumer<Segment> scanned) {
        StateIndex fresh = new StateIndex();
        for (Segment s : segments) {
            Segment copy = new Segment(s.file, s.index, s.compacted, Map.of());
            copy.claimedRecords = s.claimedRecords;
            SegmentScanner.scan(state, copy, fresh, false, true);
            progress.advance(1, Math.max(0, state.size(s.file)));
            scanned.accept(copy);
        }
        return fresh;
    }

    /** Adds the state index's first difference from a fresh scan to {@code found}. */
    private static void addDrift(LogState state, StateIndex fresh, List<String> found) {
        String differs = state.index.firstDifference(fresh);
        if (differs != null) {
            found.add("Segmented log state index drift. First difference: id " + differs);
        }
    }
}

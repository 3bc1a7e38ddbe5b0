package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.index.IndexManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One write operation under the collection lock: checks unique indexes, writes record files (in
 * batches) and then brings the indexes up to date. Index maintenance of an atomic bulk operation
 * is applied once, after its records are durable, so each value file is rewritten once per
 * operation instead of once per record (W7); a streaming one applies it after each batch, so its
 * memory does not grow with the number of records. Index files are written lazily durable (see
 * {@link WriteGate}: the writer marker covers them until they are fsynced).
 *
 * <p>An <em>atomic</em> session (a put, a group commit, a putMany, a delete) runs with an undo log
 * ({@link UndoFiles.Undo}): when any step fails, every file it changed is put back, so a caller
 * told "failed" never sees the write; a failed folder fsync is reported at the end instead, with
 * the write complete (see docs/failures.md). A <em>streaming</em> session (putStream, a JSONL
 * import) keeps what it wrote before a failure. Whenever the indexes may no longer match the
 * records (an undo that failed, a failed folder fsync, a streaming failure), the collection is
 * marked so that its next open rebuilds them. A crash between the records and the indexes is
 * mended the same way (the crashed writer's marker).
 */
final class WriteSession {

    /**
     * What a session uses beside the writer and the indexes.
     *
     * @param readExisting reads a record from disk (null when absent)
     * @param invalidate drops the caches' entries of a record whose write was undone
     * @param markDrift marks the collection for an index rebuild on its next open; never throws
     * @param ended told when a session ends (finished or not), so the lazy writes get synced once
     *     the store is idle; never throws
     */
    record Support(Function<String, StorageRecord> readExisting, RecordWrites.Invalidation invalidate,
            Runnable markDrift, Runnable ended) {
    }

    private final RecordWriter.Batch batch;
    private final IndexManager indexes;
    private final java.util.Set<String> indexedKeys;
    private final Support support;
    private final UndoFiles.Undo undo;
    private final Map<String, Map<String, String>> uniqueValues = new HashMap<>();
    /** The new data of every record of a {@link #putAll} batch, known before the first check. */
    private Map<String, Map<String, Object>> rewritten = Map.of();
    private final Map<String, Map<String, Object>> pendingIndexed = new HashMap<>();
    private final List<IndexManager.Change> changes = new ArrayList<>();
    private final Set<String> touched = new LinkedHashSet<>();
    private boolean done;
    private Throwable failure;

    /**
     * @param writer the record writer
     * @param indexes the collection's indexes
     * @param support reads, cache invalidation and the drift mark
     * @param undo the undo log of an atomic session, {@code null} for a streaming one
     */
    WriteSession(RecordWriter writer, IndexManager indexes, Support support, UndoFiles.Undo undo) {
        this(writer.batch(), indexes, support, undo);
    }

    /**
     * @param batch where the records go: a plain batch, or one written through the batch journal
     * @param indexes the collection's indexes
     * @param support reads, cache invalidation and the drift mark
     * @param undo the undo log of an atomic session, {@code null} for a streaming one
     */
    WriteSession(RecordWriter.Batch batch, IndexManager indexes, Support support, UndoFiles.Undo undo) {
        this(batch, indexes, indexes.indexedKeys(), support, undo);
    }

    /**
     * @param batch where the records go
     * @param indexes the collection's indexes
     * @param indexedKeys {@link IndexManager#indexedKeys()}, looked up by the caller under the same
     *     hold of the write lock
     * @param support reads, cache invalidation and the drift mark
     * @param undo the undo log of an atomic session, {@code null} for a streaming one
     */
    WriteSession(RecordWriter.Batch batch, IndexManager indexes, Set<String> indexedKeys, Support support,
            UndoFiles.Undo undo) {
        this.batch = batch;
        this.indexes = indexes;
        this.indexedKeys = indexedKeys;
        this.support = support;
        this.undo = undo;
    }

    /**
     * Checks one record against the unique indexes (the store's and this session's records) and
     * works out its index change; writes nothing.
     *
     * @return the change, or {@code null} without indexes
     */
    private IndexManager.Change check(PreparedRecord p) {
        if (indexedKeys.isEmpty()) {
            return null;
        }
        Map<String, Object> before = null;
        if (pendingIndexed.containsKey(p.id())) {
            before = pendingIndexed.get(p.id());
        } else if (p.explicitId()) {
            StorageRecord old = support.readExisting().apply(p.id());
            before = old == null ? null : project(old.data());
        }
        indexes.checkUnique(p.id(), p.data(), uniqueValues, rewritten);
        Map<String, Object> after = project(p.data());
        pendingIndexed.put(p.id(), after);
        return new IndexManager.Change(p.id(), before, after);
    }

    private void add(PreparedRecord p, IndexManager.Change change) {
        touched.add(p.id());
        batch.add(p);
        if (change != null) {
            changes.add(change);
        }
        if (batch.full()) {
            try {
                batch.flush();
                if (undo == null) {
                    applyWritten();
                }
            } catch (RuntimeException e) {
                abort(e); // a group of records failed, not this one alone: the session is over
                throw e;
            }
        }
    }

    /**
     * A streaming session brings the indexes up to date after each batch of records, so it holds
     * one batch's changes at a time, whatever the number of records: the unique values and old data
     * of earlier batches are then read from the index and record files.
     */
    private void applyWritten() {
        indexes.apply(changes);
        changes.clear();
        pendingIndexed.clear();
        uniqueValues.clear();
        touched.clear();
    }

    /** @return the failure that ended this session ({@link #abort}), or {@code null} while it runs or after it finished */
    Throwable failure() {
        return failure;
    }

    /**
     * Checks and writes one record; a record refused (a unique value taken, its bucket not
     * creatable) changes nothing and leaves the session usable for the others.
     */
    void put(PreparedRecord p) {
        boolean had = pendingIndexed.containsKey(p.id());
        Map<String, Object> previous = pendingIndexed.get(p.id());
        IndexManager.Change change = check(p);
        try {
            add(p, change);
        } catch (RuntimeException e) {
            if (had) {
                pendingIndexed.put(p.id(), previous);
            } else {
                pendingIndexed.remove(p.id());
            }
            throw e;
        }
    }

    /**
     * Checks every record (unique values within the batch and against the store) before the first
     * is written, then writes them; any failure undoes the session. A unique value the store holds
     * for a record the batch rewrites without it is free for another record of the batch.
     */
    void putAll(List<PreparedRecord> records) {
        List<IndexManager.Change> staged = new ArrayList<>(records.size());
        Map<String, Map<String, Object>> batch = new HashMap<>();
        records.forEach(p -> batch.put(p.id(), p.data()));
        rewritten = batch;
        try {
            for (PreparedRecord p : records) {
                staged.add(check(p));
            }
            for (int i = 0; i < records.size(); i++) {
                add(records.get(i), staged.get(i));
            }
        } catch (RuntimeException e) {
            abort(e);
            throw e;
        }
    }

    /**
     * Takes a record out of the indexes before its file is deleted, so that a failing index write
     * leaves the record in place; a failure undoes the session ({@link #abort}) and is thrown.
     *
     * @param id the record's id
     * @param old the record as stored
     */
    void deleting(String id, StorageRecord old) {
        touched.add(id);
        if (indexedKeys.isEmpty()) {
            return;
        }
        changes.add(new IndexManager.Change(id, project(old.data()), null));
        try {
            indexes.apply(changes);
            changes.clear();
        } catch (RuntimeException e) {
            abort(e);
            throw e;
        }
    }

    /**
     * Writes what is pending, then the index changes of everything written. On failure the session
     * is undone ({@link #abort}) and the failure thrown; a folder fsync that failed in an atomic
     * session is thrown after the write completed.
     */
    void finish() {
        if (done) {
            return;
        }
        try {
            batch.flush();
            if (!changes.isEmpty()) { // without changes nothing is written (no look at the index manifests either)
                indexes.apply(changes);
            }
        } catch (RuntimeException e) {
            abort(e);
            throw e;
        }
        done = true;
        support.ended().run();
        if (undo != null) {
            undo.end();
            StorageException unsynced = undo.syncFailure();
            if (unsynced != null) {
                support.markDrift().run(); // durable or not, the next open makes the indexes match
                throw unsynced;
            }
        }
    }

    /**
     * Ends a failed session: an atomic one puts every file back (when that fails too, the failure
     * gets it as suppressed and the collection is marked for an index rebuild); a streaming one
     * keeps its records and marks the rebuild. Idempotent.
     *
     * @param failure what went wrong
     */
    void abort(Throwable failure) {
        if (done) {
            return;
        }
        done = true;
        this.failure = failure;
        try {
            if (undo == null) {
                if (!touched.isEmpty() && indexes.active()) {
                    support.markDrift().run();
                }
                return;
            }
            try {
                undo.rollback();
            } catch (RuntimeException notUndone) {
                failure.addSuppressed(notUndone);
                support.markDrift().run();
            } finally {
                indexes.undone(); // what memory took from the index files as written is gone with them
            }
        } finally {
            touched.forEach(support.invalidate()::invalidate);
            support.ended().run();
        }
    }

    private Map<String, Object> project(Map<String, Object> data) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String key : indexedKeys) {
            if (data.containsKey(key)) {
                out.put(key, data.get(key));
            }
        }
        return out;
    }
}

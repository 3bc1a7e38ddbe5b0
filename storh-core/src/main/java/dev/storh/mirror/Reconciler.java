package dev.storh.mirror;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.json.Jsonc;
import dev.storh.id.UuidV7;
import dev.storh.mirror.MirrorConnection.MirrorStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import dev.storh.progress.ProgressTracker;

/**
 * The per-collection work of {@link SqlMirror}, over one {@link MirrorConnection}: push, flush,
 * verify and pull of one table. Stateless; the caller serialises use of the connection.
 *
 * <p>Push reads every {@code (id, hash)} pair of the table into memory (about 100 bytes per row),
 * then streams the store once: a record whose hash matches its row is left alone, a changed one is
 * rewritten (DELETE then INSERT; PostgreSQL: one upsert; SQLite: in place when its typed columns
 * keep their values, see {@link Dialect#rewritesInPlace()}), a new one is inserted, and the rows
 * left over are deleted 500 ids per statement. Writes go out in JDBC batches of {@value #BATCH}
 * rows (SQLite: inserts {@link Dialect#rowsPerInsert} rows per statement). A rebuild, which empties
 * the table first, reads no hashes.
 */
final class Reconciler {

    static final int DELETE_CHUNK = 500;
    static final int BATCH = 500;

    private Reconciler() {
    }

    /**
     * Runs work in one transaction: begin, work, commit; on any failure roll back (when a
     * transaction is open) and rethrow the original failure, with a rollback failure suppressed.
     *
     * @param large whether the work may change many rows (a JDBC connection to SQLite then widens
     *     its page cache for the transaction)
     */
    static <T> T transaction(MirrorConnection c, boolean large, Supplier<T> work) {
        try {
            if (c instanceof JdbcMirrorConnection jdbc) {
                jdbc.begin(large);
            } else {
                c.begin();
            }
        } catch (StorageException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new StorageException("SQL mirror transaction failed: " + e.getMessage(), e);
        }
        try {
            T result = work.get();
            c.commit();
            return result;
        } catch (RuntimeException | Error e) {
            try {
                if (c.inTransaction()) {
                    c.rollback();
                }
            } catch (RuntimeException rollbackFailure) {
                e.addSuppressed(rollbackFailure);
            }
            throw e;
        }
    }

    /**
     * The store is read ahead by a {@link RecordFeed} (its own thread streams, encodes and hashes
     * the records) while this thread opens the transaction, reads the table's hashes and writes.
     */
    static PushResult push(MirrorConnection c, MirrorTable t, boolean emptyFirst, ProgressTracker progress) {
        try (RecordFeed feed = RecordFeed.start(t.source())) {
            return transaction(c, true, () -> {
                if (emptyFirst) {
                    c.execute(t.deleteAll());
                }
                Map<String, String> rows = emptyFirst ? new HashMap<>() : hashes(c, t);
                long inserted = 0;
                long updated = 0;
                long unchanged = 0;
                try (RowWriter writer = new RowWriter(c, t)) {
                    for (RecordFeed.Row row = feed.next(); row != null; row = feed.next()) {
                        StorageRecord r = row.record();
                        progress.advance(1, row.text().length());
                        String old = rows.remove(r.id());
                        if (old == null) {
                            writer.write(r.id(), t.rowValues(r, row.text(), row.hash()), false);
                            inserted++;
                        } else if (old.equals(row.hash())) {
                            unchanged++;
                        } else {
                            writer.write(r.id(), t.rowValues(r, row.text(), row.hash()), true);
                            updated++;
                        }
                    }
                    writer.finish();
                }
                long deleted = deleteIds(c, t, new ArrayList<>(rows.keySet()));
                return new PushResult(inserted, updated, deleted, unchanged);
            });
        }
    }

    static FlushResult flush(MirrorConnection c, MirrorTable t, List<String> ids) {
        return transaction(c, ids.size() > BATCH, () -> {
            if (ids.isEmpty()) {
                // servers prepare lazily: make a missing table fail here too
                c.rows(t.selectHashes() + " WHERE 1 = 0", row -> { });
            }
            long upserted = 0;
            long deleted = 0;
            Set<String> written = new HashSet<>();
            try (RowWriter writer = new RowWriter(c, t)) {
                for (String id : new LinkedHashSet<>(ids)) {
                    Optional<StorageRecord> found = t.source().get(id);
                    if (found.isPresent()) {
                        StorageRecord r = found.get();
                        if (!r.id().equals(id)) {
                            writer.delete(id);
                        }
                        if (!written.add(r.id())) {
                            continue; // the same record listed again in another letter case: one row, counted once
                        }
                        String text = RowCodec.dataText(r.data());
                        writer.write(r.id(), t.rowValues(r, text, RowCodec.hash(text)), true);
                        upserted++;
                    } else {
                        writer.delete(id);
                        deleted++;
                    }
                }
                writer.finish();
            }
            return new FlushResult(upserted, deleted);
        });
    }

    static MirrorVerifyReport.CollectionStats verify(MirrorConnection c, MirrorTable t) {
        Map<String, String> rows = hashes(c, t);
        long records = 0;
        long missing = 0;
        long stale = 0;
        try (Stream<StorageRecord> stream = t.source().stream()) {
            Iterator<StorageRecord> it = stream.iterator();
            while (it.hasNext()) {
                StorageRecord r = it.next();
                records++;
                String old = rows.remove(r.id());
                if (old == null) {
                    missing++;
                } else if (!old.equals(RowCodec.hash(RowCodec.dataText(r.data())))) {
                    stale++;
                }
            }
        }
        long orphaned = rows.size();
        return new MirrorVerifyReport.CollectionStats(records, records - missing + orphaned, missing, stale, orphaned);
    }

    /**
     * Rows are read in id order and written {@value #BATCH} at a time, each batch in order; when a
     * row or the query fails, the rows before it are written first.
     */
    static PullResult pull(MirrorConnection c, MirrorTable t) {
        long[] counts = new long[2];
        Map<String, Map<String, Object>> pending = new LinkedHashMap<>();
        try {
            pullRows(c, t, counts, pending);
        } catch (RuntimeException e) {
            try {
                writePending(t, pending);
            } catch (RuntimeException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        counts[0] += writePending(t, pending);
        return new PullResult(counts[0], counts[1]);
    }

    private static void pullRows(MirrorConnection c, MirrorTable t, long[] counts, Map<String, Map<String, Object>> pending) {
        c.rows(t.selectData(), row -> {
            if (row.size() < 2 || !(row.get(0) instanceof String id) || !(row.get(1) instanceof String text)) {
                throw new StorageException("SQL mirror pull read a malformed row from: " + t.table());
            }
            if (!UuidV7.isValid(id)) {
                throw new StorageException("SQL mirror pull requires UUIDv7 row ids, got: " + id);
            }
            Object parsed;
            try {
                parsed = Jsonc.decodeStrict(text);
            } catch (RuntimeException e) {
                throw new StorageException("SQL mirror pull found invalid JSON for id " + id + " in " + t.table()
                        + " (" + e.getMessage() + ")", e);
            }
            if (!(parsed instanceof Map) && !(parsed instanceof List)) {
                throw new StorageException("SQL mirror pull found a non-array data row for id " + id + " in " + t.table());
            }
            Map<String, Object> data = RowCodec.recordData(parsed);
            Optional<StorageRecord> existing = t.source().get(id);
            if (existing.isPresent() && sameData(t.dialect(), existing.get().data(), data)) {
                counts[1]++;
                return;
            }
            pending.put(id, data);
            if (pending.size() >= BATCH) {
                counts[0] += writePending(t, pending);
            }
        });
    }

    private static long writePending(MirrorTable t, Map<String, Map<String, Object>> pending) {
        if (pending.isEmpty()) {
            return 0;
        }
        try {
            return t.source().putAll(pending);
        } finally {
            pending.clear();
        }
    }

    /** PostgreSQL's JSONB does not keep member order, so there equal content counts as the same. */
    private static boolean sameData(Dialect dialect, Map<String, Object> stored, Map<String, Object> row) {
        if (dialect == Dialect.POSTGRESQL) {
            return stored.equals(row);
        }
        return RowCodec.dataText(stored).equals(RowCodec.dataText(row));
    }

    /**
     * @return id → hash of every row; rows whose id or hash is not text are ignored (over JDBC: is
     *     NULL; the id and hash columns are text columns)
     */
    static Map<String, String> hashes(MirrorConnection c, MirrorTable t) {
        Map<String, String> rows = new HashMap<>();
        if (c instanceof JdbcMirrorConnection jdbc) {
            jdbc.pairs(t.selectHashes(), rows::put);
            return rows;
        }
        c.rows(t.selectHashes(), row -> {
            if (row.size() >= 2 && row.get(0) instanceof String id && row.get(1) instanceof String hash) {
                rows.put(id, hash);
            }
        });
        return rows;
    }

    private static long deleteIds(MirrorConnection c, MirrorTable t, List<String> ids) {
        for (int from = 0; from < ids.size(); from += DELETE_CHUNK) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + DELETE_CHUNK));
            try (MirrorStatement delete = c.prepare(t.deleteManyStatement(chunk.size()))) {
                delete.execute(new ArrayList<>(chunk));
            }
        }
        return ids.size();
    }

    /**
     * Buffers row writes and sends them in batches: first the pending in-place rewrites, then the
     * pending deletes, then the pending inserts, so a rewritten row is always deleted before it is
     * inserted again. A changed row is first tried in place where the dialect
     * {@linkplain Dialect#rewritesInPlace() does so} (over JDBC, which tells whether the UPDATE
     * matched); one whose typed columns change (or whose row is gone) joins the deletes and inserts.
     * Once a full batch of inserts is pending, inserts go out as statements of
     * {@link Dialect#rowsPerInsert} rows each and the rest as a batch of single-row ones; fewer rows
     * (a flush) only as single-row ones. The INSERT and the single-id DELETE are prepared at once
     * (a missing table fails there), the in-place UPDATE and the long INSERT when first needed.
     */
    private static final class RowWriter implements AutoCloseable {
        private final MirrorConnection c;
        private final MirrorTable t;
        private final boolean upserts;
        private final boolean inPlace;
        private final int group;
        private final MirrorStatement insert;
        private final MirrorStatement deleteOne;
        private MirrorStatement insertGroup;
        private MirrorStatement rewrite;
        private final List<List<Object>> rewrites = new ArrayList<>();
        private final List<List<Object>> deletes = new ArrayList<>();
        private final List<List<Object>> inserts = new ArrayList<>();

        RowWriter(MirrorConnection c, MirrorTable t) {
            this.c = c;
            this.t = t;
            this.upserts = t.dialect().upserts();
            this.inPlace = t.dialect().rewritesInPlace() && c instanceof JdbcMirrorConnection;
            this.group = t.dialect().rowsPerInsert(t.columns().size() + 3);
            this.insert = c.prepare(t.insertStatement());
            MirrorStatement d;
            try {
                d = c.prepare(t.deleteOneStatement());
            } catch (RuntimeException e) {
                insert.close();
                throw e;
            }
            this.deleteOne = d;
        }

        void write(String id, List<Object> values, boolean replace) {
            if (replace && inPlace) {
                rewrites.add(values);
                if (rewrites.size() >= BATCH) {
                    send();
                }
                return;
            }
            if (replace && !upserts) {
                deletes.add(List.of(id));
            }
            inserts.add(values);
            if (inserts.size() >= BATCH) {
                send();
            }
        }

        void delete(String id) {
            deletes.add(List.of(id));
            if (deletes.size() >= BATCH) {
                send();
            }
        }

        void finish() {
            send();
        }

        private void send() {
            if (!rewrites.isEmpty()) {
                rewriteInPlace();
            }
            if (!deletes.isEmpty()) {
                deleteOne.executeBatch(new ArrayList<>(deletes));
                deletes.clear();
            }
            if (inserts.isEmpty()) {
                return;
            }
            // a few rows (a flush) are not worth preparing the long statement; a push of many is
            boolean many = insertGroup != null || inserts.size() >= BATCH;
            int grouped = group > 1 && many ? inserts.size() - inserts.size() % group : 0;
            if (grouped > 0 && insertGroup == null) {
                insertGroup = c.prepare(t.insertStatement(group));
            }
            for (int from = 0; from < grouped; from += group) {
                List<Object> params = new ArrayList<>(group * inserts.get(from).size());
                for (List<Object> row : inserts.subList(from, from + group)) {
                    params.addAll(row);
                }
                insertGroup.execute(params);
            }
            if (grouped < inserts.size()) {
                insert.executeBatch(new ArrayList<>(inserts.subList(grouped, inserts.size())));
            }
            inserts.clear();
        }

        /** Rows the UPDATE did not change (typed values differ, row gone) join the deletes and inserts. */
        private void rewriteInPlace() {
            if (rewrite == null) {
                rewrite = c.prepare(t.rewriteStatement());
            }
            List<List<Object>> params = new ArrayList<>(rewrites.size());
            for (List<Object> values : rewrites) {
                params.add(MirrorTable.inPlaceValues(values));
            }
            int[] changed = rewrite instanceof JdbcMirrorConnection.Counted counted ? counted.executeCounted(params) : null;
            for (int i = 0; i < rewrites.size(); i++) {
                if (changed == null || i >= changed.length || changed[i] != 1) {
                    List<Object> values = rewrites.get(i);
                    deletes.add(List.of(values.get(0)));
                    inserts.add(values);
                }
            }
            rewrites.clear();
        }

        @Override
        public void close() {
            RuntimeException failure = null;
            for (MirrorStatement s : new MirrorStatement[] {rewrite, insert, deleteOne, insertGroup}) {
                if (s == null) {
                    continue;
                }
                try {
                    s.close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}

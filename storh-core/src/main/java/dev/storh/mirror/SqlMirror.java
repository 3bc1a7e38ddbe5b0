package dev.storh.mirror;

import dev.storh.StorageException;
import dev.storh.doc.DocStore;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import dev.storh.schema.Schema;
import dev.storh.store.RecordStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Copies collections of file stores into SQL tables, so that applications can join, group and
 * report in SQL while the files stay the source of truth. Tables are a derived copy: they can be
 * dropped and rebuilt from the stores at any time, and {@link #pull} restores stores from them.
 *
 * <pre>
 * SqlMirror mirror = SqlMirror.builder().dataSource(ds).prefix("app_").build()
 *         .collection(MirrorSource.of(products), "products", productSchema)
 *         .collection(MirrorSource.of(events), "events");
 * mirror.install();                 // CREATE TABLE IF NOT EXISTS app_products (…), app_events (…)
 * PushResult r = mirror.push();     // reconcile every table with its store by row hash
 * mirror.flush("products", ids);    // read-your-writes for a few ids
 * </pre>
 *
 * <p>Table layout: {@code id} (primary key), {@code hash} (XXH3-128 of the canonical data text, 32
 * hex digits), one typed column per {@code string}/{@code int}/{@code float}/{@code bool} schema
 * field (NULL when the record's value has another type), and {@code data} (the whole record as
 * canonical JSON; {@code JSONB} on PostgreSQL). SQLite and MySQL/MariaDB tables are the same as the
 * PHP original's. Identifiers are quoted, values always bound. See {@code docs/mirror.md}.
 *
 * <p>Transactions: {@link #push} runs one transaction per collection (a failure rolls that
 * collection back completely and is rethrown; collections pushed earlier in the same call stay
 * committed); {@link #flush} and {@link #rebuild} run in one transaction per collection too.
 * {@link #install}, {@link #uninstall}, {@link #verify} and {@link #pull} run in auto-commit.
 *
 * <p>Errors are {@link StorageException}s: {@code "SQL mirror statement failed: <driver message>"},
 * {@code "SQL mirror transaction failed: <reason>"}, {@code "Unknown SQL mirror collection: <name>"}
 * (raised before any SQL), registration errors naming the name or field, and the store's own
 * errors from {@link #pull} and {@link #flush}.
 *
 * <p>Thread-safe. Over a single {@link Connection} or {@link MirrorConnection} every operation holds
 * that connection exclusively; over a {@link DataSource} each operation borrows its own connection
 * and operations on the same collection are serialised. Registration may run concurrently with
 * operations; an operation works on the collections registered when it started. Push and rebuild
 * stream each store on a second thread of their own, which ends before they return.
 */
public final class SqlMirror {

    /** The table prefix used when none is given. */
    public static final String DEFAULT_PREFIX = "storh_";

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_]*");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

    private final Sessions sessions;
    private final Dialect dialect;
    private final String prefix;
    private volatile Map<String, MirrorTable> tables = Map.of();
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    private SqlMirror(Sessions sessions, Dialect dialect, String prefix) {
        this.sessions = sessions;
        this.dialect = dialect;
        this.prefix = prefix;
    }

    /**
     * @return a builder; give it exactly one of a connection, a data source or a mirror connection
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param dataSource the database; each operation borrows a connection and closes it
     * @return a mirror with the default prefix and the detected dialect
     */
    public static SqlMirror over(DataSource dataSource) {
        return builder().dataSource(dataSource).build();
    }

    /**
     * @param connection a JDBC connection, used by the mirror and still owned (closed) by the caller
     * @return a mirror with the default prefix and the detected dialect
     */
    public static SqlMirror over(Connection connection) {
        return builder().connection(connection).build();
    }

    /**
     * @return the dialect this mirror writes
     */
    public Dialect dialect() {
        return dialect;
    }

    /**
     * @return the table prefix
     */
    public String prefix() {
        return prefix;
    }

    /**
     * @param store a document store
     * @param name the collection name ({@code [A-Za-z0-9_-]+})
     * @return this mirror
     * @see #collection(MirrorSource, String, Schema)
     */
    public SqlMirror collection(DocStore store, String name) {
        return collection(MirrorSource.of(store), name, null);
    }

    /**
     * @param store a document store
     * @param name the collection name
     * @param schema typed columns, or {@code null}
     * @return this mirror
     * @see #collection(MirrorSource, String, Schema)
     */
    public SqlMirror collection(DocStore store, String name, Schema schema) {
        return collection(MirrorSource.of(store), name, schema);
    }

    /**
     * @param store any store of records, e.g. a segmented log (live records only)
     * @param name the collection name
     * @return this mirror
     * @see #collection(MirrorSource, String, Schema)
     */
    public SqlMirror collection(RecordStore<?, ?, ?> store, String name) {
        return collection(MirrorSource.of(store), name, null);
    }

    /**
     * @param store any store of records
     * @param name the collection name
     * @param schema typed columns, or {@code null}
     * @return this mirror
     * @see #collection(MirrorSource, String, Schema)
     */
    public SqlMirror collection(RecordStore<?, ?, ?> store, String name, Schema schema) {
        return collection(MirrorSource.of(store), name, schema);
    }

    /**
     * Registers a collection: a store and the table {@code prefix + name} with {@code -} replaced by
     * {@code _}. Operations visit collections in registration order.
     *
     * <p>Each {@code string}, {@code int}, {@code float} and {@code bool} schema field becomes a
     * nullable column named like the field (indexed when the field is indexed, unique when it is
     * unique); non-indexed {@code mixed} fields are skipped. The schema is independent of any
     * schema the store itself enforces.
     *
     * @param source the store
     * @param name the collection name, {@code [A-Za-z0-9_-]+}
     * @param schema typed columns, or {@code null} for id, hash and data only
     * @return this mirror, for chaining
     * @throws StorageException {@code "SQL mirror collection name must match [A-Za-z0-9_-]+."};
     *     {@code "SQL mirror collection is already registered: <name>"};
     *     {@code "SQL mirror table for <name> collides with collection <other>: <table>"} (also for
     *     table or index names differing only in letter case);
     *     {@code "SQL mirror cannot index mixed schema field: <field>"};
     *     {@code "SQL mirror cannot map schema field name: <field>"} (names must match
     *     {@code [A-Za-z][A-Za-z0-9_]*} and not be {@code id}, {@code hash} or {@code data})
     */
    public synchronized SqlMirror collection(MirrorSource source, String name, Schema schema) {
        Objects.requireNonNull(source, "source");
        if (name == null || !NAME.matcher(name).matches()) {
            throw new StorageException("SQL mirror collection name must match [A-Za-z0-9_-]+. Got: " + name);
        }
        if (tables.containsKey(name)) {
            throw new StorageException("SQL mirror collection is already registered: " + name);
        }
        String table = prefix + name.replace('-', '_');
        MirrorTable candidate = new MirrorTable(name, table, source, MirrorColumn.of(schema), dialect);
        candidate.refuseCollisions(tables.values());
        Map<String, MirrorTable> next = new LinkedHashMap<>(tables);
        next.put(name, candidate);
        tables = java.util.Collections.unmodifiableMap(next);
        return this;
    }

    /**
     * @return the registered collection names, in registration order
     */
    public List<String> collections() {
        return List.copyOf(tables.keySet());
    }

    /**
     * @param name a registered collection
     * @return its table name (no SQL is run)
     * @throws StorageException {@code "Unknown SQL mirror collection: <name>"}
     */
    public String table(String name) {
        return lookup(name).table();
    }

    /**
     * Creates every registered table and its indexes if they do not exist yet. Never alters an
     * existing table: to change a mirrored schema, {@link #uninstall}, install and push.
     *
     * @throws StorageException {@code "SQL mirror statement failed: …"}
     */
    public void install() {
        for (MirrorTable t : tables.values()) {
            sessions.run(c -> {
                t.createStatements().forEach(c::execute);
                return null;
            });
        }
    }

    /**
     * Drops every registered table ({@code DROP TABLE IF EXISTS}); the stores are not touched.
     *
     * @throws StorageException {@code "SQL mirror statement failed: …"}
     */
    public void uninstall() {
        for (MirrorTable t : tables.values()) {
            sessions.run(c -> {
                c.execute(t.dropStatement());
                return null;
            });
        }
    }

    /**
     * Reconciles every registered table with its store, in registration order.
     *
     * @return the counters summed over the collections; all zero when none is registered
     * @throws StorageException a statement or transaction failure, a store failure; the failing
     *     collection's table is left exactly as it was
     */
    public PushResult push() {
        return push(null);
    }

    /**
     * Reconciles one table (or all when {@code name} is {@code null}) with its store by content
     * hash, one transaction per collection.
     *
     * @param name a registered collection, or {@code null} for all
     * @return {@code inserted}, {@code updated}, {@code deleted}, {@code unchanged}
     * @throws StorageException {@code "Unknown SQL mirror collection: <name>"} before any SQL; a
     *     statement, transaction or store failure (that collection rolled back)
     */
    public PushResult push(String name) {
        return push(name, ProgressListener.NONE);
    }

    /**
     * {@link #push(String)}, reporting progress: one snapshot stream per call, {@code done} counting
     * the store's records read so far over all target collections, {@code bytes} their canonical
     * JSON text in UTF-16 characters, {@code total} the stores' record counts at the start.
     *
     * @param name a registered collection, or {@code null} for all
     * @param listener receives the snapshots (on the calling thread); {@code null} for none
     * @return as {@link #push(String)}
     * @throws StorageException as {@link #push(String)}; also when the listener throws
     */
    public PushResult push(String name, ProgressListener listener) {
        return reconcile("push", name, false, listener);
    }

    private PushResult reconcile(String operation, String name, boolean emptyFirst, ProgressListener listener) {
        Collection<MirrorTable> targets = targets(name);
        boolean watched = listener != null && listener != ProgressListener.NONE;
        long expected = watched ? 0 : -1; // the stores' counts only matter to a listener
        for (MirrorTable t : watched ? targets : List.<MirrorTable>of()) {
            long n = t.source().count();
            expected = n < 0 || expected < 0 ? -1 : expected + n;
        }
        ProgressTracker progress = ProgressTracker.start(operation, expected, ProgressTracker.UNKNOWN_BYTES, listener);
        PushResult total = PushResult.ZERO;
        for (MirrorTable t : targets) {
            total = total.plus(locked(t, c -> Reconciler.push(c, t, emptyFirst, progress)));
        }
        progress.finish();
        return total;
    }

    /**
     * Empties the tables and pushes every record again, per collection in one transaction (a
     * failure leaves the table as it was, not empty).
     *
     * @param name a registered collection, or {@code null} for all
     * @return the push counters (every record {@code inserted})
     * @throws StorageException as {@link #push(String)}
     */
    public PushResult rebuild(String name) {
        return rebuild(name, ProgressListener.NONE);
    }

    /**
     * {@link #rebuild(String)}, reporting progress as {@link #push(String, ProgressListener)} does.
     *
     * @param name a registered collection, or {@code null} for all
     * @param listener receives the snapshots (on the calling thread); {@code null} for none
     * @return as {@link #rebuild(String)}
     * @throws StorageException as {@link #rebuild(String)}; also when the listener throws
     */
    public PushResult rebuild(String name, ProgressListener listener) {
        return reconcile("rebuild", name, true, listener);
    }

    /**
     * @return {@link #rebuild(String)} of every collection
     */
    public PushResult rebuild() {
        return rebuild(null);
    }

    /**
     * Writes only the listed ids of one collection, in one transaction: each id's row is deleted and,
     * when the store holds the record, written again. Duplicates count once (also one record listed
     * in both letter cases); rows of other ids and the store are not touched.
     *
     * @param name a registered collection
     * @param ids record ids (UUIDv7)
     * @return {@code upserted} (ids found in the store) and {@code deleted} (ids not found)
     * @throws StorageException {@code "Unknown SQL mirror collection: <name>"}; the store's
     *     {@code "Invalid UUIDv7 value."}; statement or transaction failures (nothing written)
     */
    public FlushResult flush(String name, Collection<String> ids) {
        MirrorTable t = lookup(name);
        List<String> list = new ArrayList<>(Objects.requireNonNull(ids, "ids"));
        return locked(t, c -> Reconciler.flush(c, t, list));
    }

    /**
     * Copies table rows back into their stores, rows in id order: a row whose record holds the same
     * data is counted {@code unchanged}, any other row is written with {@code put(data, id)}. Never
     * deletes store records; records written before a failing row stay written.
     *
     * @param name a registered collection, or {@code null} for all
     * @return {@code written}, {@code unchanged}
     * @throws StorageException {@code "SQL mirror pull read a malformed row from: <table>"},
     *     {@code "SQL mirror pull requires UUIDv7 row ids, got: <id>"},
     *     {@code "SQL mirror pull found invalid JSON for id <id> in <table>"},
     *     {@code "SQL mirror pull found a non-array data row for id <id> in <table>"}, the store's
     *     own refusal (schema, unique index), statement failures
     */
    public PullResult pull(String name) {
        PullResult total = new PullResult(0, 0);
        for (MirrorTable t : targets(name)) {
            total = total.plus(locked(t, c -> Reconciler.pull(c, t)));
        }
        return total;
    }

    /**
     * @return {@link #pull(String)} of every collection
     */
    public PullResult pull() {
        return pull(null);
    }

    /**
     * Compares every registered collection with its table without writing anything.
     *
     * @return {@code ok}, the drift sentences, per-collection stats
     * @throws StorageException {@code "SQL mirror statement failed: …"}, e.g. for a missing table
     */
    public MirrorVerifyReport verify() {
        Map<String, MirrorVerifyReport.CollectionStats> stats = new LinkedHashMap<>();
        for (MirrorTable t : tables.values()) {
            stats.put(t.collection(), sessions.run(c -> Reconciler.verify(c, t)));
        }
        return MirrorVerifyReport.of(stats);
    }

    private MirrorTable lookup(String name) {
        MirrorTable t = tables.get(name);
        if (t == null) {
            throw new StorageException("Unknown SQL mirror collection: " + name);
        }
        return t;
    }

    private Collection<MirrorTable> targets(String name) {
        return name == null ? tables.values() : List.of(lookup(name));
    }

    private <T> T locked(MirrorTable t, Function<MirrorConnection, T> work) {
        ReentrantLock lock = locks.computeIfAbsent(t.collection(), k -> new ReentrantLock());
        lock.lock();
        try {
            return sessions.run(work);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "SqlMirror[" + dialect.label() + ", prefix " + prefix + ", " + tables.values() + "]";
    }

    /**
     * Builds a {@link SqlMirror}. Not thread-safe; {@link #build()} checks the options.
     */
    public static final class Builder {
        private Connection connection;
        private DataSource dataSource;
        private MirrorConnection mirrorConnection;
        private String prefix = DEFAULT_PREFIX;
        private String dialect;

        private Builder() {
        }

        /** @param connection a JDBC connection (the caller keeps owning it) @return this builder */
        public Builder connection(Connection connection) {
            this.connection = Objects.requireNonNull(connection, "connection");
            return this;
        }

        /** @param dataSource a data source; connections are borrowed per operation @return this builder */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /** @param connection a ready-made mirror connection, its own dialect is used @return this builder */
        public Builder mirrorConnection(MirrorConnection connection) {
            this.mirrorConnection = Objects.requireNonNull(connection, "connection");
            return this;
        }

        /** @param prefix the table prefix, {@code [A-Za-z0-9_]*}, default {@code storh_} @return this builder */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /**
         * @param dialect {@code sqlite}, {@code mysql} or {@code postgresql}, replacing the detected
         *     one; only for a JDBC connection or data source
         * @return this builder
         */
        public Builder dialect(String dialect) {
            this.dialect = dialect;
            return this;
        }

        /**
         * @return the mirror (a data source is asked for one connection to detect the dialect)
         * @throws StorageException {@code "SQL mirror table prefix must match [A-Za-z0-9_]*."};
         *     {@code "Unsupported SQL mirror driver: <name>"};
         *     {@code "SQL mirror driver overrides only apply to JDBC connections."}; a statement
         *     failure while detecting the dialect
         * @throws IllegalStateException when not exactly one connection kind was given
         */
        public SqlMirror build() {
            if (prefix == null || !PREFIX.matcher(prefix).matches()) {
                throw new StorageException("SQL mirror table prefix must match [A-Za-z0-9_]*. Got: " + prefix);
            }
            int kinds = (connection != null ? 1 : 0) + (dataSource != null ? 1 : 0) + (mirrorConnection != null ? 1 : 0);
            if (kinds != 1) {
                throw new IllegalStateException("SqlMirror needs exactly one of connection, dataSource, mirrorConnection");
            }
            Dialect override = dialect == null ? null : Dialect.ofName(dialect);
            if (mirrorConnection != null) {
                if (override != null) {
                    throw new StorageException("SQL mirror driver overrides only apply to JDBC connections.");
                }
                return new SqlMirror(new Sessions.Shared(mirrorConnection), mirrorConnection.dialect(), prefix);
            }
            if (connection != null) {
                MirrorConnection c = new JdbcMirrorConnection(connection, override);
                return new SqlMirror(new Sessions.Shared(c), c.dialect(), prefix);
            }
            Dialect d = override;
            if (d == null) {
                try (Connection c = dataSource.getConnection()) {
                    d = Dialect.ofProductName(c.getMetaData().getDatabaseProductName());
                } catch (SQLException e) {
                    throw JdbcMirrorConnection.statementFailed(e);
                }
            }
            return new SqlMirror(new Sessions.Pooled(dataSource, d), d, prefix);
        }
    }
}

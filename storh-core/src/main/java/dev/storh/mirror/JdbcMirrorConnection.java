package dev.storh.mirror;

import dev.storh.StorageException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * {@link MirrorConnection} over a JDBC connection. A transaction is "auto-commit off": begin turns
 * it off (refusing when it already is), commit and rollback end the transaction and turn it back on.
 * On SQLite a large transaction ({@link #begin()}, {@code begin(true)}) runs with a page cache of at
 * least 64 MiB ({@link SqlitePageCache}); a short one keeps the connection's cache.
 */
final class JdbcMirrorConnection implements MirrorConnection {

    private static final int FETCH_SIZE = 1000;

    private final Connection connection;
    private final Dialect dialect;
    private final SqlitePageCache pageCache;

    JdbcMirrorConnection(Connection connection, Dialect override) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.dialect = override != null ? override : detect(connection);
        this.pageCache = dialect == Dialect.SQLITE ? new SqlitePageCache(connection) : null;
    }

    private static Dialect detect(Connection connection) {
        try {
            return Dialect.ofProductName(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw statementFailed(e);
        }
    }

    @Override
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public void execute(String sql) {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw statementFailed(e);
        }
    }

    @Override
    public void rows(String sql, Consumer<List<Object>> row) {
        try (Statement s = connection.createStatement()) {
            s.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = s.executeQuery(sql)) {
                ResultSetMetaData meta = rs.getMetaData();
                int n = meta.getColumnCount();
                while (rs.next()) {
                    List<Object> values = new ArrayList<>(n);
                    for (int i = 1; i <= n; i++) {
                        Object v = rs.getObject(i);
                        values.add(v == null || v instanceof String || v instanceof Number || v instanceof Boolean
                                ? v : rs.getString(i));
                    }
                    row.accept(values);
                }
            }
        } catch (SQLException e) {
            throw statementFailed(e);
        }
    }

    /**
     * Runs a query of two text columns and hands each row whose values are both non-null to
     * {@code pair}, read with {@code getString}: what {@link #rows} gives for text columns, without a
     * list per row or a type probe per value.
     *
     * @param sql a query whose first two columns are text
     * @param pair receives both values of each row, in result order
     */
    void pairs(String sql, BiConsumer<String, String> pair) {
        try (Statement s = connection.createStatement()) {
            s.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    String first = rs.getString(1);
                    String second = rs.getString(2);
                    if (first != null && second != null) {
                        pair.accept(first, second);
                    }
                }
            }
        } catch (SQLException e) {
            throw statementFailed(e);
        }
    }

    @Override
    public MirrorStatement prepare(String sql) {
        try {
            return new Prepared(connection.prepareStatement(sql));
        } catch (SQLException e) {
            throw statementFailed(e);
        }
    }

    @Override
    public void begin() {
        begin(true);
    }

    /**
     * @param large whether the transaction may change many pages (push, rebuild, a long flush): on
     *     SQLite only such a transaction widens the page cache, a short one keeps the connection's
     *     cache and the pages in it
     * @see #begin()
     */
    void begin(boolean large) {
        try {
            if (!connection.getAutoCommit()) {
                throw new StorageException("SQL mirror transaction failed: There is already an active transaction");
            }
            if (pageCache != null && large) {
                pageCache.widen();
            }
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw transactionFailed(e);
        }
    }

    @Override
    public void commit() {
        end(Connection::commit);
    }

    @Override
    public void rollback() {
        end(Connection::rollback);
    }

    /** A commit or a rollback, as a method reference. */
    private interface Ending {
        void apply(Connection connection) throws SQLException;
    }

    private void end(Ending ending) {
        try {
            ending.apply(connection);
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw transactionFailed(e);
        } finally {
            if (pageCache != null) {
                pageCache.restore();
            }
        }
    }

    @Override
    public boolean inTransaction() {
        try {
            return !connection.getAutoCommit();
        } catch (SQLException e) {
            throw transactionFailed(e);
        }
    }

    static StorageException statementFailed(SQLException e) {
        return new StorageException("SQL mirror statement failed: " + describe(e), e);
    }

    private static StorageException transactionFailed(SQLException e) {
        return new StorageException("SQL mirror transaction failed: " + describe(e), e);
    }

    private static String describe(SQLException e) {
        return (e.getSQLState() == null ? "" : "SQLSTATE[" + e.getSQLState() + "]: ") + e.getMessage();
    }

    /** A statement that tells how many rows each execution of a batch changed. */
    interface Counted {

        /**
         * @param batch the parameter lists, run in order as one batch
         * @return per parameter list the rows it changed, or a negative number when the driver
         *     cannot tell ({@link Statement#SUCCESS_NO_INFO})
         */
        int[] executeCounted(List<List<Object>> batch);
    }

    private record Prepared(PreparedStatement statement) implements MirrorStatement, Counted {

        @Override
        public int[] executeCounted(List<List<Object>> batch) {
            if (batch.isEmpty()) {
                return new int[0];
            }
            try {
                for (List<Object> params : batch) {
                    bind(params);
                    statement.addBatch();
                }
                return statement.executeBatch();
            } catch (SQLException e) {
                SQLException next = e.getNextException();
                throw statementFailed(next != null && next != e ? next : e);
            }
        }

        @Override
        public void execute(List<Object> params) {
            try {
                bind(params);
                statement.executeUpdate();
            } catch (SQLException e) {
                throw statementFailed(e);
            }
        }

        @Override
        public void executeBatch(List<List<Object>> batch) {
            executeCounted(batch);
        }

        private void bind(List<Object> params) throws SQLException {
            for (int i = 0; i < params.size(); i++) {
                Object v = params.get(i);
                if (v == null) {
                    statement.setNull(i + 1, Types.NULL);
                } else if (v instanceof String s) {
                    statement.setString(i + 1, s);
                } else if (v instanceof Long l) {
                    statement.setLong(i + 1, l);
                } else if (v instanceof Integer n) {
                    statement.setInt(i + 1, n);
                } else if (v instanceof Double d) {
                    statement.setDouble(i + 1, d);
                } else if (v instanceof Boolean b) {
                    statement.setBoolean(i + 1, b);
                } else {
                    statement.setObject(i + 1, v);
                }
            }
        }

        @Override
        public void close() {
            try {
                statement.close();
            } catch (SQLException e) {
                throw statementFailed(e);
            }
        }
    }
}

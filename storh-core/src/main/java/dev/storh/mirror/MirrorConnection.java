package dev.storh.mirror;

import java.sql.Connection;
import java.util.List;
import java.util.function.Consumer;

/**
 * The SQL operations the mirror needs, over one database session. {@link #jdbc(Connection)} wraps a
 * JDBC connection; tests and special set-ups can implement it themselves (e.g. to inject failures).
 *
 * <p>Errors: implementations report failures as {@link dev.storh.StorageException} with the
 * message {@code "SQL mirror statement failed: <driver message>"} for statements and
 * {@code "SQL mirror transaction failed: <reason>"} for {@link #begin}, {@link #commit} and
 * {@link #rollback}. A connection is used by one thread at a time; {@link SqlMirror} serialises its
 * own use of a shared connection.
 */
public interface MirrorConnection {

    /**
     * @return the dialect the connection speaks
     */
    Dialect dialect();

    /**
     * @param sql a statement without parameters or results (DDL, plain DELETE)
     */
    void execute(String sql);

    /**
     * Runs a query and hands each row to {@code row} as a positional list of values (String,
     * Long/Integer, Double, Boolean or {@code null}; other driver types as their text).
     *
     * @param sql the query
     * @param row receives each row in result order
     */
    void rows(String sql, Consumer<List<Object>> row);

    /**
     * @param sql a statement with {@code ?} placeholders
     * @return the prepared statement; close it after use
     */
    MirrorStatement prepare(String sql);

    /**
     * Opens a transaction.
     *
     * @throws dev.storh.StorageException {@code "SQL mirror transaction failed: There is already an
     *     active transaction"} when one is open
     */
    void begin();

    /** Commits the open transaction. */
    void commit();

    /** Rolls the open transaction back. */
    void rollback();

    /**
     * @return whether a transaction is open (for JDBC: auto-commit is off)
     */
    boolean inTransaction();

    /**
     * @param connection a JDBC connection; its dialect comes from the database product name
     * @return the connection as a mirror connection (closing it stays the caller's job)
     * @throws dev.storh.StorageException {@code "Unsupported SQL mirror driver: <product>"}
     */
    static MirrorConnection jdbc(Connection connection) {
        return new JdbcMirrorConnection(connection, null);
    }

    /**
     * @param connection a JDBC connection
     * @param dialect the dialect to use instead of the detected one
     * @return the connection as a mirror connection
     */
    static MirrorConnection jdbc(Connection connection, Dialect dialect) {
        return new JdbcMirrorConnection(connection, dialect);
    }

    /** A prepared statement of a {@link MirrorConnection}. */
    interface MirrorStatement extends AutoCloseable {

        /**
         * @param params positional values: String, Long, Integer, Double, Boolean or {@code null}
         */
        void execute(List<Object> params);

        /**
         * Runs the statement once per parameter list, in order. The default calls {@link #execute}
         * for each; JDBC sends them as one batch.
         *
         * @param batch the parameter lists
         */
        default void executeBatch(List<List<Object>> batch) {
            for (List<Object> params : batch) {
                execute(params);
            }
        }

        @Override
        default void close() {
        }
    }
}

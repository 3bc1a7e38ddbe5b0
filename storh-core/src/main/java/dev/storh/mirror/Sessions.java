package dev.storh.mirror;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * How a {@link SqlMirror} operation gets its connection: one shared connection held exclusively per
 * operation ({@link Shared}), or a connection borrowed from a data source per operation
 * ({@link Pooled}). Thread-safe.
 */
interface Sessions {

    /**
     * @param work what to run on the connection
     * @param <T> its result
     * @return the result of {@code work}
     * @throws dev.storh.StorageException {@code "SQL mirror statement failed: …"} when no connection
     *     can be had; whatever {@code work} throws
     */
    <T> T run(Function<MirrorConnection, T> work);

    /** One shared connection, used by one operation at a time. */
    final class Shared implements Sessions {
        private final MirrorConnection connection;
        private final ReentrantLock lock = new ReentrantLock();

        Shared(MirrorConnection connection) {
            this.connection = connection;
        }

        @Override
        public <T> T run(Function<MirrorConnection, T> work) {
            lock.lock();
            try {
                return work.apply(connection);
            } finally {
                lock.unlock();
            }
        }
    }

    /** A connection borrowed from a data source per operation, closed afterwards. */
    record Pooled(DataSource dataSource, Dialect dialect) implements Sessions {

        @Override
        public <T> T run(Function<MirrorConnection, T> work) {
            try (Connection c = dataSource.getConnection()) {
                return work.apply(new JdbcMirrorConnection(c, dialect));
            } catch (SQLException e) {
                throw JdbcMirrorConnection.statementFailed(e);
            }
        }
    }
}

package dev.storh.mirror;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The page cache of a SQLite connection while a large mirror transaction (push, rebuild, a flush of
 * more than {@value Reconciler#BATCH} ids) runs: widened to at least
 * {@value #KIB} KiB ({@code PRAGMA cache_size=-65536}) at the start and put back to what it was at
 * the end. SQLite's default cache (2 MiB) is smaller than a mirror table of some ten thousand rows
 * with its indexes, and a transaction whose changed pages outgrow the cache spills them to the
 * database file before the commit (an extra journal sync and pages written twice). A connection
 * setting only, no file format change; memory is taken only as pages are used. Best effort: a
 * connection that refuses the pragma keeps its cache. Not thread-safe (the mirror holds its
 * connection exclusively).
 */
final class SqlitePageCache {

    /** The cache size a mirror transaction runs with, at least, in KiB. */
    static final long KIB = 65_536;

    private final Connection connection;
    private String restore;

    SqlitePageCache(Connection connection) {
        this.connection = connection;
    }

    /** Widens the cache when it is smaller than {@link #KIB}; remembers the setting to put back. */
    void widen() {
        restore = null;
        try (Statement s = connection.createStatement()) {
            long pages;
            long pageSize;
            try (ResultSet rs = s.executeQuery("PRAGMA cache_size")) {
                pages = rs.next() ? rs.getLong(1) : 0;
            }
            try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
                pageSize = rs.next() ? rs.getLong(1) : 4096;
            }
            long kib = pages < 0 ? -pages : pages * pageSize / 1024;
            if (kib < KIB) {
                s.execute("PRAGMA cache_size=-" + KIB);
                restore = Long.toString(pages);
            }
        } catch (SQLException ignored) {
            // only a performance setting: the transaction runs with the cache it has
        }
    }

    /** Puts the cache setting back after {@link #widen()} changed it. */
    void restore() {
        if (restore == null) {
            return;
        }
        String pages = restore;
        restore = null;
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA cache_size=" + pages);
        } catch (SQLException ignored) {
            // only a performance setting: the connection keeps the wider cache
        }
    }
}

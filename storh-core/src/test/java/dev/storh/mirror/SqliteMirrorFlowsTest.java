package dev.storh.mirror;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** The mirror flows against a real SQLite database file. */
class SqliteMirrorFlowsTest extends MirrorFlowsContract {

    @Override
    Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + root.resolve("mirror.db"));
    }
}

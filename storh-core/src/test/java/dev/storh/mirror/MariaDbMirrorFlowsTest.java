package dev.storh.mirror;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeAll;

/** The mirror flows against a real MariaDB server (skipped without {@code STORH_TEST_MARIADB_URL}). */
class MariaDbMirrorFlowsTest extends MirrorFlowsContract {

    @BeforeAll
    static void server() {
        ServerUrls.require(ServerUrls.MARIADB);
    }

    @Override
    Connection connect() throws SQLException {
        return ServerUrls.connect(ServerUrls.MARIADB);
    }
}

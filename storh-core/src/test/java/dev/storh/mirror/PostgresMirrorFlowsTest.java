package dev.storh.mirror;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeAll;

/** The mirror flows against a real PostgreSQL server (skipped without {@code STORH_TEST_POSTGRES_URL}). */
class PostgresMirrorFlowsTest extends MirrorFlowsContract {

    @BeforeAll
    static void server() {
        ServerUrls.require(ServerUrls.POSTGRES);
    }

    @Override
    Connection connect() throws SQLException {
        return ServerUrls.connect(ServerUrls.POSTGRES);
    }
}

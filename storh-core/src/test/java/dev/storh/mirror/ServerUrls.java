package dev.storh.mirror;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assumptions;

/**
 * JDBC URLs of the database servers the mirror tests run against, from the environment
 * ({@code .ci/services.sh} starts the servers and exports them). A missing variable skips the test
 * with the reason printed.
 */
final class ServerUrls {

    static final String MARIADB = "STORH_TEST_MARIADB_URL";
    static final String POSTGRES = "STORH_TEST_POSTGRES_URL";

    private ServerUrls() {
    }

    static String require(String variable) {
        String url = System.getenv(variable);
        if (url == null || url.isBlank()) {
            String reason = variable + " is not set: no server to test against (source .ci/services.sh to start one)";
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
        return url;
    }

    static Connection connect(String variable) throws SQLException {
        return DriverManager.getConnection(require(variable));
    }
}

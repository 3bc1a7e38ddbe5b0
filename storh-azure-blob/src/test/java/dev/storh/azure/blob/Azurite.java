package dev.storh.azure.blob;

import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Azurite blob service the tests run against, named by the environment variable
 * {@value #VARIABLE} ({@code .ci/run} starts one and sets it). Without it a test is skipped with
 * the reason printed, except under CI ({@code CI=true}), where the tests must run and fail instead.
 */
public final class Azurite {

    /** The environment variable with Azurite's connection string. */
    static final String VARIABLE = "STORH_TEST_AZURITE_CONNECTION_STRING";

    private Azurite() {
    }

    /** @return the connection string; skips (or, under CI, fails) the calling test without one */
    public static String connectionString() {
        String value = System.getenv(VARIABLE);
        if (value == null || value.isBlank()) {
            String reason = VARIABLE + " is not set: start Azurite's blob service (see .ci/services.sh) to run this test";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(reason + " (CI must run the blob tests)");
            }
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
        return value;
    }

    /** @return a container name no other test uses */
    public static String freshContainer() {
        return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 20).toLowerCase(Locale.ROOT);
    }

    /**
     * @param container the container
     * @return a backend on it (close it)
     */
    public static AzureBlobBackend backend(String container) {
        return AzureBlobBackend.builder().connectionString(connectionString()).container(container).build();
    }

    /**
     * A container of its own for each test, deleted after it:
     * {@code @RegisterExtension final Azurite.Fresh blob = new Azurite.Fresh();}.
     */
    public static final class Fresh implements BeforeEachCallback, AfterEachCallback {
        private String name;
        private AzureBlobBackend backend;

        @Override
        public void beforeEach(ExtensionContext context) {
            name = freshContainer();
            backend = Azurite.backend(name);
        }

        @Override
        public void afterEach(ExtensionContext context) {
            if (backend != null) {
                backend.container().delete();
                backend.close();
            }
        }

        /** @return the container's name */
        public String name() {
            return name;
        }

        /** @return a backend on it, closed after the test */
        public AzureBlobBackend backend() {
            return backend;
        }
    }
}

package dev.storh.sample.cities;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import dev.storh.azure.blob.AzureBlobBackend;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample, unchanged, on Azure Blob Storage: started on a real port with
 * {@code storh.backend=azure-blob} against the Azurite blob service the CI starts (its connection
 * string in {@code STORH_TEST_AZURITE_CONNECTION_STRING}; without it the test is skipped, under
 * {@code CI=true} it fails), it imports the first {@value #SLICE} places of the bundled data set
 * into a fresh container and serves them back over HTTP: pages in id order, point reads, the
 * country filter (an index query on index blobs), and a place created and deleted through the
 * API. The records are blobs named bucket first; the local
 * root gets no record files.
 */
@ExtendWith({CitiesOnAzuriteHttpTest.AzuriteRequired.class, CitiesOnAzuriteHttpTest.DeleteContainerAfterTheApp.class})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // close the app (its listener and leases) before the container is deleted
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CitiesOnAzuriteHttpTest {

    /** How many places of the bundled file the app imports. */
    static final int SLICE = 120;

    private static final String VARIABLE = "STORH_TEST_AZURITE_CONNECTION_STRING";

    private static final String CONTAINER = "cities" + UUID.randomUUID().toString().replace("-", "").substring(0, 16)
            .toLowerCase(Locale.ROOT);

    @TempDir
    static Path root;

    private static List<Map<String, Object>> slice;

    @DynamicPropertySource
    static void onAzurite(DynamicPropertyRegistry registry) throws IOException {
        String connection = connectionString();
        slice = writeSlice(root.resolve("slice.jsonl"));
        registry.add("storh.backend", () -> "azure-blob");
        registry.add("storh.azure.blob.connection-string", () -> connection);
        registry.add("storh.azure.blob.container", () -> CONTAINER);
        registry.add("storh.azure.blob.timeout", () -> "120s"); // Azurite shares a loaded machine with the build
        registry.add("storh.root", () -> root.resolve("storh-data").toString());
        registry.add("cities.import.resource", () -> root.resolve("slice.jsonl").toUri().toString());
        registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + root.resolve("mirror.sqlite"));
    }

    private static String connectionString() {
        String value = System.getenv(VARIABLE);
        if (value == null || value.isBlank()) {
            String reason = VARIABLE + " is not set: start Azurite's blob service (see .ci/services.sh) to run this test";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(reason + " (CI must run the blob tests)");
            }
            Assumptions.abort(reason);
        }
        return value;
    }

    /** Copies the first {@link #SLICE} lines of the bundled places file; returns them parsed. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> writeSlice(Path target) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                CitiesOnAzuriteHttpTest.class.getResourceAsStream("/cities.jsonl.gz")), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null && lines.size() < SLICE; line = in.readLine()) {
                lines.add(line);
            }
        }
        Files.write(target, lines, StandardCharsets.UTF_8);
        JsonMapper mapper = JsonMapper.builder().build();
        return lines.stream().map(l -> (Map<String, Object>) mapper.readValue(l, Map.class)).toList();
    }

    private static AzureBlobBackend backend;

    /** @return the app's container, through a client of its own (the backend pins a service version Azurite accepts) */
    private static synchronized BlobContainerClient container() {
        if (backend == null) {
            backend = AzureBlobBackend.builder().connectionString(connectionString()).container(CONTAINER).build();
        }
        return backend.container();
    }

    /**
     * Skips the class before Spring loads the app when no Azurite connection string is set (an
     * assumption that aborts inside the context's property sources would be reported as an error);
     * under {@code CI=true} the missing variable fails the class instead.
     */
    static final class AzuriteRequired implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String value = System.getenv(VARIABLE);
            if (value != null && !value.isBlank()) {
                return ConditionEvaluationResult.enabled(VARIABLE + " is set");
            }
            String reason = VARIABLE + " is not set: start Azurite's blob service (see .ci/services.sh) to run this test";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(reason + " (CI must run the blob tests)");
            }
            return ConditionEvaluationResult.disabled(reason);
        }
    }

    /**
     * Deletes the container once the app is closed: declared before {@code @SpringBootTest}, its
     * after-all callback runs after Spring's, which closes the (dirtied) app with its listener,
     * maintenance and leases.
     */
    static final class DeleteContainerAfterTheApp implements AfterAllCallback {
        @Override
        public void afterAll(ExtensionContext context) {
            if (backend != null) {
                backend.container().deleteIfExists();
                backend.close();
            }
        }
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    private HttpResponse<String> send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> getJson(String path) {
        HttpResponse<String> response = send("GET", path, null);
        assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(200);
        return json.readValue(response.body(), Map.class);
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> allPages(String query) {
        List<Map<String, Object>> all = new ArrayList<>();
        for (int page = 0; ; page++) {
            Map<String, Object> body = getJson("/cities?size=100&page=" + page + query);
            List<Map<String, Object>> content = (List<Map<String, Object>>) body.get("content");
            if (content.isEmpty()) {
                return all;
            }
            all.addAll(content);
        }
    }

    private static Map<String, Object> withoutId(Map<String, Object> city) {
        Map<String, Object> copy = new java.util.HashMap<>(city);
        copy.remove("id");
        return copy;
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void servesTheImportedPlacesFromTheContainer() {
        Map<String, Object> first = getJson("/cities?page=0&size=50");
        assertThat(((Number) ((Map<String, Object>) first.get("page")).get("totalElements")).longValue()).isEqualTo(SLICE);
        List<Map<String, Object>> served = allPages("");
        List<String> ids = served.stream().map(c -> (String) c.get("id")).toList();
        assertThat(ids).hasSize(SLICE).doesNotHaveDuplicates().isSorted();
        assertThat(served.stream().map(CitiesOnAzuriteHttpTest::withoutId).toList())
                .as("every place of the slice, as imported").containsExactlyInAnyOrderElementsOf(slice);
        assertThat(getJson("/cities/" + ids.get(17))).isEqualTo(served.get(17));

        String country = (String) slice.get(0).get("country");
        long inCountry = slice.stream().filter(c -> country.equals(c.get("country"))).count();
        List<Map<String, Object>> filtered = allPages("&country=" + country);
        assertThat(filtered).as("the country index on blobs").hasSize((int) inCountry)
                .allSatisfy(c -> assertThat(c.get("country")).isEqualTo(country));

        List<String> blobs = container().listBlobs().stream().map(BlobItem::getName).toList();
        assertThat(blobs.stream().filter(n -> n.matches("[0-9a-f]{2}/cities/data/[0-9a-f-]{36}\\.jsonc")).count())
                .as("one blob per place, named bucket first").isEqualTo(SLICE);
        assertThat(blobs).contains(ids.get(0).substring(24, 26) + "/cities/data/" + ids.get(0) + ".jsonc");
        assertThat(root.resolve("storh-data/cities/data")).as("no record files on the local disk").doesNotExist();
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void createsAndDeletesAPlaceInTheContainer() {
        HttpResponse<String> created = send("POST", "/cities",
                "{\"name\":\"Azurite Town\",\"lat\":\"46.77\",\"lng\":\"23.59\",\"country\":\"ZZ\",\"admin1\":\"13\",\"admin2\":\"\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, Object> place = json.readValue(created.body(), Map.class);
        String id = (String) place.get("id");
        assertThat(getJson("/cities/" + id)).isEqualTo(place);
        assertThat(container().getBlobClient(id.substring(24, 26) + "/cities/data/" + id + ".jsonc").exists()).isTrue();
        assertThat(send("DELETE", "/cities/" + id, null).statusCode()).isEqualTo(204);
        assertThat(send("GET", "/cities/" + id, null).statusCode()).isEqualTo(404);
        assertThat(container().getBlobClient(id.substring(24, 26) + "/cities/data/" + id + ".jsonc").exists()).isFalse();
    }
}

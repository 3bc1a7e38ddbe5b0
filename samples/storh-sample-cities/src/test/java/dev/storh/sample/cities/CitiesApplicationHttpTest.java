package dev.storh.sample.cities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.query.QueryPlan;
import dev.storh.query.Values;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import dev.storh.spring.listener.StorhListenerEndpointRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.PageRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Starts the sample on a real port against a fresh storage root, lets it import the whole bundled
 * data set, and talks to it over real HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext // close the app (and its listener) before the temporary root is deleted
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CitiesApplicationHttpTest {

    @TempDir
    static Path root;

    @DynamicPropertySource
    static void storageRoot(DynamicPropertyRegistry registry) {
        registry.add("storh.root", () -> root.toString());
        registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + root.resolve("mirror.sqlite"));
    }

    @LocalServerPort
    int port;

    @Autowired
    StorhListenerEndpointRegistry listeners;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> getJson(String path) throws Exception {
        HttpResponse<String> response = send("GET", path, null);
        assertThat(response.statusCode()).as(path + " -> " + response.body()).isEqualTo(200);
        return json.readValue(response.body(), Map.class);
    }

    /** Counts the bundled data set independently of the app, per country too. */
    private static Map<String, Object> bundledCounts() throws IOException {
        long total = 0;
        long romania = 0;
        JsonMapper mapper = JsonMapper.builder().build();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                CitiesApplicationHttpTest.class.getResourceAsStream("/cities.jsonl.gz")), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                total++;
                if ("RO".equals(mapper.readTree(line).get("country").asString())) {
                    romania++;
                }
            }
        }
        return Map.of("total", total, "RO", romania);
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void importsTheWholeDataSetAndPagesItInIdOrder() throws Exception {
        Map<String, Object> bundled = bundledCounts();
        assertThat(bundled.get("total")).isEqualTo(171_075L);
        Map<String, Object> first = getJson("/cities?page=0&size=50");
        Map<String, Object> page = (Map<String, Object>) first.get("page");
        assertThat(((Number) page.get("totalElements")).longValue()).isEqualTo(171_075L);
        assertThat(((Number) page.get("totalPages")).longValue()).isEqualTo(3422L);
        List<Map<String, Object>> content = (List<Map<String, Object>>) first.get("content");
        assertThat(content).hasSize(50);
        List<String> ids = new ArrayList<>(content.stream().map(c -> (String) c.get("id")).toList());
        List<Map<String, Object>> second = (List<Map<String, Object>>) getJson("/cities?page=1&size=50").get("content");
        ids.addAll(second.stream().map(c -> (String) c.get("id")).toList());
        assertThat(ids).hasSize(100).doesNotHaveDuplicates().isSorted().allMatch(UuidV7::isValid);
        // Every record is on disk where the bucket rule puts it.
        String id = ids.get(0);
        assertThat(root.resolve("cities/data/" + id.substring(24, 26) + "/" + id + ".jsonc")).isRegularFile();
        // Point read agrees with the page.
        Map<String, Object> one = getJson("/cities/" + id);
        assertThat(one).isEqualTo(content.get(0));
        assertThat(one.get("name")).isInstanceOf(String.class);
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void filtersByCountry() throws Exception {
        long romania = (Long) bundledCounts().get("RO");
        Map<String, Object> body = getJson("/cities?country=RO&page=0&size=20");
        assertThat(((Number) ((Map<String, Object>) body.get("page")).get("totalElements")).longValue()).isEqualTo(romania);
        List<Map<String, Object>> content = (List<Map<String, Object>>) body.get("content");
        assertThat(content).hasSize(20).allSatisfy(c -> assertThat(c.get("country")).isEqualTo("RO"));
        assertThat(content.stream().map(c -> (String) c.get("id")).toList()).isSorted();
    }

    @Autowired
    StorhTemplate template;

    @Autowired
    CityRepository cities;

    @Test
    @Order(3)
    @SuppressWarnings("unchecked")
    void derivedQueriesAreServedFromIndexesOnAllPlaces() throws Exception {
        StorhRepositoryFactory factory = new StorhRepositoryFactory(template);
        for (QueryPlan plan : List.of(
                factory.explain(CityRepository.class, "findByCountry", "RO", PageRequest.of(0, 20)),
                factory.explain(CityRepository.class, "findByNameStartingWith", "Cluj", Limit.of(50)),
                factory.explain(CityRepository.class, "countByCountry", "RO"),
                factory.explain(CityRepository.class, "findTop10ByCountryOrderByNameAsc", "RO"))) {
            assertThat(plan.plan()).as(plan.toString()).isEqualTo("index_scan");
        }
        assertThat(template.docStore(City.class).indexes().definitions())
                .extracting(d -> d.field() + (d.range() ? ":range" : ""))
                .containsExactly("country", "name:range");

        long romania = (Long) bundledCounts().get("RO");
        Map<String, Object> country = getJson("/cities/countries/RO");
        assertThat(((Number) country.get("count")).longValue()).isEqualTo(romania);
        List<Map<String, Object>> top10 = (List<Map<String, Object>>) country.get("top10");
        List<String> names = top10.stream().map(c -> (String) c.get("name")).toList();
        assertThat(top10).hasSize(10).allSatisfy(c -> assertThat(c.get("country")).isEqualTo("RO"));
        // the ten smallest Romanian names, by the same UTF-8 byte order, found without the index
        List<String> expected;
        try (var all = template.docStore("cities").stream()) {
            expected = all.filter(r -> "RO".equals(r.data().get("country"))).map(r -> (String) r.data().get("name"))
                    .sorted(Values::compareUtf8).limit(10).toList();
        }
        assertThat(names).isEqualTo(expected);

        List<Map<String, Object>> cluj = json.readValue(send("GET", "/cities/search?prefix=Cluj&limit=50", null).body(),
                List.class);
        assertThat(cluj).isNotEmpty().allSatisfy(c -> assertThat((String) c.get("name")).startsWith("Cluj"));
        assertThat(cities.findByNameStartingWith("Cluj", Limit.unlimited()))
                .hasSameSizeAs(cluj).allSatisfy(c -> assertThat(c.name()).startsWith("Cluj"));
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void createsReadsAndDeletesAPlace() throws Exception {
        HttpResponse<String> created = send("POST", "/cities",
                "{\"name\":\"Sânmartin 東京\",\"lat\":\"46.25\",\"lng\":\"23.6\",\"country\":\"RO\",\"admin1\":\"13\",\"admin2\":\"\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        Map<String, Object> place = json.readValue(created.body(), Map.class);
        String id = (String) place.get("id");
        assertThat(UuidV7.isValid(id)).isTrue();
        assertThat(created.headers().firstValue("Location")).contains("/cities/" + id);
        Path file = root.resolve("cities/data/" + id.substring(24, 26) + "/" + id + ".jsonc");
        assertThat(Files.readString(file)).isEqualTo("{\"id\":\"" + id + "\",\"data\":{\"name\":\"Sânmartin 東京\","
                + "\"lat\":\"46.25\",\"lng\":\"23.6\",\"country\":\"RO\",\"admin1\":\"13\",\"admin2\":\"\"}}\n");
        assertThat(getJson("/cities/" + id)).isEqualTo(place);

        assertThat(send("POST", "/cities", "{\"lat\":\"1\"}").statusCode()).isEqualTo(400);
        // a malformed id names no place: 404, not 400 or 500
        assertThat(send("GET", "/cities/nope", null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/cities/not-an-id", null).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/cities/nope", null).statusCode()).isEqualTo(404);

        assertThat(send("DELETE", "/cities/" + id, null).statusCode()).isEqualTo(204);
        assertThat(file).doesNotExist();
        assertThat(send("GET", "/cities/" + id, null).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/cities/" + id, null).statusCode()).isEqualTo(404);
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void toursKeepExactPricesWithAuditingAndTheRangeIndexAnswersAsAScan() throws Exception {
        List<String> prices = List.of("19.990", "19.99", "0.10", "12345678901234567890.123456789", "20", "-3.50");
        List<String> ids = new java.util.ArrayList<>();
        for (String price : prices) {
            HttpResponse<String> created = send("POST", "/tours",
                    "{\"cityId\":\"x\",\"title\":\"Tour " + price + "\",\"price\":" + price + "}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            Map<String, Object> tour = json.readValue(created.body(), Map.class);
            assertThat(tour.get("created")).as("auditing").isNotNull();
            ids.add((String) tour.get("id"));
        }
        for (int i = 0; i < prices.size(); i++) {
            String id = ids.get(i);
            HttpResponse<String> read = send("GET", "/tours/" + id, null);
            assertThat(read.statusCode()).isEqualTo(200);
            // exact digits, scale included, over HTTP and in the file
            assertThat(read.body()).contains("\"price\":" + prices.get(i));
            Path file = root.resolve("tours/data/" + id.substring(24, 26) + "/" + id + ".jsonc");
            assertThat(Files.readString(file)).contains("\"price\":" + prices.get(i) + ",");
        }
        HttpResponse<String> range = send("GET", "/tours?from=19.99&to=20", null);
        assertThat(range.statusCode()).as(range.body()).isEqualTo(200);
        List<Map<String, Object>> found = json.readValue(range.body(), List.class);
        List<String> titles = found.stream().map((t) -> (String) t.get("title")).toList();
        // 19.990 and 19.99 are the same amount, both in range; the order between equal prices is by id
        assertThat(titles).containsExactlyInAnyOrder("Tour 19.990", "Tour 19.99", "Tour 20");
        assertThat(titles.get(2)).isEqualTo("Tour 20");
        assertThat(send("GET", "/tours/nope", null).statusCode()).isEqualTo(404);

        DocStore tours = DocStore.open(root, "tours");
        try (tours) {
            assertThat(tours.verify().ok()).isTrue();
            assertThat(tours.query().where("price").between(new BigDecimal("19.99"), new BigDecimal("20")).explain().plan())
                    .isEqualTo("index_scan");
            // the index answer equals a scan over the stored values
            long scanned = tours.stream(dev.storh.query.RecordQuery.all()).filter((r) -> {
                BigDecimal price = new BigDecimal(r.data().get("price").toString());
                return price.compareTo(new BigDecimal("19.99")) >= 0 && price.compareTo(new BigDecimal("20")) <= 0;
            }).count();
            assertThat(scanned).isEqualTo(titles.size());
        }
    }

    @Test
    @Order(5)
    @SuppressWarnings("unchecked")
    void healthCountsEachKindOfStoreAndWritesNothing() throws Exception {
        List<String> before;
        try (var files = Files.list(root)) {
            before = files.map(Path::toString).sorted().toList();
        }
        Map<String, Object> components = (Map<String, Object>) getJson("/actuator/health").get("components");
        Map<String, Object> details = (Map<String, Object>) ((Map<String, Object>) components.get("storh")).get("details");
        assertThat(details).containsEntry("collections", 2).containsEntry("logs", 1)
                .containsEntry("queues", 2); // jobs and the listener's jobs.dead
        try (var files = Files.list(root)) {
            assertThat(files.map(Path::toString).sorted().toList()).isEqualTo(before);
        }
    }

    @Test
    @Order(5)
    @SuppressWarnings("unchecked")
    void healthShowsTheStorhComponent() throws Exception {
        HttpResponse<String> response = send("GET", "/actuator/health", null);
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> health = json.readValue(response.body(), Map.class);
        assertThat(health.get("status")).isEqualTo("UP");
        Map<String, Object> storh = (Map<String, Object>) ((Map<String, Object>) health.get("components")).get("storh");
        assertThat(storh.get("status")).isEqualTo("UP");
        assertThat(root.resolve("cities.import-complete")).isRegularFile();
    }

    @Test
    @Order(5)
    @SuppressWarnings("unchecked")
    void healthHasOneComponentPerCollectionLogAndQueue() throws Exception {
        Map<String, Object> components = (Map<String, Object>) getJson("/actuator/health").get("components");
        Map<String, Object> cities = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) components
                .get("storhCollections")).get("components")).get("cities");
        assertThat(cities.get("status")).isEqualTo("UP");
        assertThat((Map<String, Object>) cities.get("details")).containsEntry("path", root.resolve("cities").toString())
                .containsEntry("staleWriters", List.of());
        Map<String, Object> logs = (Map<String, Object>) components.get("storhLogs");
        assertThat(((Map<String, Object>) ((Map<String, Object>) logs.get("components")).get("events")).get("status"))
                .isEqualTo("UP");
        Map<String, Object> queues = (Map<String, Object>) components.get("storhQueues");
        assertThat(((Map<String, Object>) ((Map<String, Object>) queues.get("components")).get("jobs")).get("status"))
                .isEqualTo("UP");
    }

    @Test
    @Order(6)
    @SuppressWarnings("unchecked")
    void bucketFilesMetricAndStorhEndpointAddUpToTheDataSet() throws Exception {
        Map<String, Object> metric = getJson("/actuator/metrics/storh.bucket.files?tag=name:cities");
        Map<String, Double> measurements = new java.util.HashMap<>();
        for (Map<String, Object> m : (List<Map<String, Object>>) metric.get("measurements")) {
            measurements.put((String) m.get("statistic"), ((Number) m.get("value")).doubleValue());
        }
        assertThat(measurements).containsEntry("COUNT", 256.0).containsEntry("TOTAL", 171_075.0);

        // Repository calls made by the earlier tests are timed by Spring Data's repository metrics.
        Map<String, Object> invocations = getJson(
                "/actuator/metrics/spring.data.repository.invocations?tag=repository:CityRepository");
        double calls = ((List<Map<String, Object>>) invocations.get("measurements")).stream()
                .filter(m -> "COUNT".equals(m.get("statistic"))).mapToDouble(m -> ((Number) m.get("value")).doubleValue())
                .sum();
        assertThat(calls).isGreaterThanOrEqualTo(5);

        Map<String, Object> storh = getJson("/actuator/storh");
        Map<String, Object> cities = (Map<String, Object>) ((Map<String, Object>) storh.get("collections")).get("cities");
        assertThat(((Number) cities.get("records")).longValue()).isEqualTo(171_075L);
        Map<String, Object> buckets = (Map<String, Object>) cities.get("buckets");
        Map<String, Object> sizes = (Map<String, Object>) buckets.get("sizes");
        assertThat(sizes).hasSize(256);
        assertThat(sizes.values().stream().mapToLong(v -> ((Number) v).longValue()).sum()).isEqualTo(171_075L);
        long onDisk;
        try (var files = Files.list(root.resolve("cities/data/00"))) {
            onDisk = files.filter(f -> f.getFileName().toString().endsWith(".jsonc")).count();
        }
        assertThat(((Number) sizes.get("00")).longValue()).isEqualTo(onDisk);
        assertThat(((Number) buckets.get("max")).longValue() * 256).isGreaterThanOrEqualTo(171_075L);
        assertThat(((Number) buckets.get("mean")).doubleValue()).isEqualTo(171_075 / 256.0);
        assertThat((Map<String, Object>) cities.get("writers")).containsEntry("stale", List.of());
        assertThat((Map<String, Object>) ((Map<String, Object>) storh.get("logs")).get("events")).containsKey("segments");
        assertThat((Map<String, Object>) ((Map<String, Object>) storh.get("queues")).get("jobs")).containsKey("pending");
        // write operations are off unless the application allows them
        HttpResponse<String> verify = send("POST", "/actuator/storh/collections/cities", "{\"operation\":\"verify\"}");
        assertThat(verify.statusCode()).isBetween(400, 499);
    }

    @Test
    @Order(7)
    @SuppressWarnings("unchecked")
    void creatingAndDeletingACityWritesEventsAndTheListenerChecksItsGeocode() throws Exception {
        String last = (String) getJson("/events?limit=1000").get("next");
        HttpResponse<String> created = send("POST", "/cities",
                "{\"name\":\"Turda\",\"lat\":\"46.57\",\"lng\":\"23.78\",\"country\":\"RO\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        String id = (String) json.readValue(created.body(), Map.class).get("id");
        assertThat(send("DELETE", "/cities/" + id, null).statusCode()).isEqualTo(204);

        List<Map<String, Object>> writes = eventsAfter(last).stream()
                .filter(e -> ((String) e.get("type")).matches("city\\.(created|deleted)")).toList();
        assertThat(writes).extracting(e -> e.get("type")).containsExactly("city.created", "city.deleted");
        assertThat(writes).allSatisfy(e -> assertThat(e.get("city")).isEqualTo(id));

        // GeocodeChecker's @StorhListener took the job: checked if it ran before the delete, skipped after
        Map<String, Object> outcome = awaitEvent(last, id);
        assertThat((String) outcome.get("type")).isIn("city.geocode-checked", "city.geocode-skipped");

        // a city with a latitude that is no number: three attempts, then the jobs.dead queue
        HttpResponse<String> bad = send("POST", "/cities", "{\"name\":\"Nowhere\",\"lat\":\"north\",\"lng\":\"1\",\"country\":\"RO\"}");
        String badId = (String) json.readValue(bad.body(), Map.class).get("id");
        for (long deadline = System.nanoTime() + 60_000_000_000L; deadLetters() == 0 && System.nanoTime() < deadline;) {
            Thread.sleep(100);
        }
        Map<String, Object> jobs = (Map<String, Object>) ((Map<String, Object>) getJson("/actuator/storh").get("queues")).get("jobs");
        assertThat(((Number) jobs.get("dead")).longValue()).isEqualTo(1);
        assertThat(((Number) jobs.get("pending")).longValue()).isZero();
        assertThat(((Number) jobs.get("processing")).longValue()).isZero();
        assertThat(((Number) jobs.get("done")).longValue()).isGreaterThanOrEqualTo(1);
        Map<String, Object> dead = (Map<String, Object>) ((Map<String, Object>) getJson("/actuator/storh").get("queues")).get("jobs.dead");
        assertThat(((Number) dead.get("pending")).longValue()).isEqualTo(1);
        assertThat(eventsAfter(last)).noneMatch(e -> badId.equals(e.get("city")) && "city.geocode-checked".equals(e.get("type")));

        Map<String, Object> health = getJson("/actuator/health");
        Map<String, Object> listeners = (Map<String, Object>) ((Map<String, Object>) health.get("components")).get("storhListeners");
        assertThat(listeners.get("status")).isEqualTo("UP");
        assertThat((Map<String, Object>) ((Map<String, Object>) listeners.get("details")).get("geocode-check"))
                .containsEntry("state", "running").containsEntry("deadLettered", 1);
        assertThat(root.resolve("events")).isDirectory();
        assertThat(root.resolve("jobs")).isDirectory();
        assertThat(root.resolve("jobs.dead")).isDirectory();
    }

    @Test
    @Order(8)
    @SuppressWarnings("unchecked")
    void jobsCanStillBeClaimedByHandWhileTheListenerIsPaused() throws Exception {
        listeners.pause("geocode-check");
        try {
            HttpResponse<String> created = send("POST", "/cities",
                    "{\"name\":\"Dej\",\"lat\":\"47.14\",\"lng\":\"23.87\",\"country\":\"RO\"}");
            String id = (String) json.readValue(created.body(), Map.class).get("id");
            Map<String, Object> job = null;
            for (long deadline = System.nanoTime() + 30_000_000_000L; job == null && System.nanoTime() < deadline;) {
                HttpResponse<String> claim = send("POST", "/jobs/claim", null);
                if (claim.statusCode() == 204) {
                    Thread.sleep(50); // the listener's batch under way when pausing may hold it briefly
                    continue;
                }
                Map<String, Object> claimed = json.readValue(claim.body(), Map.class);
                assertThat(send("POST", "/jobs/" + claimed.get("id") + "/complete", null).statusCode()).isEqualTo(204);
                if (id.equals(claimed.get("city"))) {
                    job = claimed;
                }
            }
            assertThat(job).isNotNull().containsEntry("kind", "geocode-check").containsEntry("lat", "47.14");
            assertThat(send("POST", "/jobs/" + job.get("id") + "/complete", null).statusCode()).isEqualTo(409);
        } finally {
            listeners.resume("geocode-check");
        }
        Map<String, Object> jobs = (Map<String, Object>) ((Map<String, Object>) getJson("/actuator/storh").get("queues")).get("jobs");
        assertThat(((Number) jobs.get("pending")).longValue()).isZero();
        assertThat(((Number) jobs.get("processing")).longValue()).isZero();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> eventsAfter(String after) throws Exception {
        return (List<Map<String, Object>>) getJson("/events?after=" + after + "&limit=1000").get("events");
    }

    private Map<String, Object> awaitEvent(String after, String city) throws Exception {
        for (long deadline = System.nanoTime() + 30_000_000_000L; System.nanoTime() < deadline; Thread.sleep(50)) {
            for (Map<String, Object> event : eventsAfter(after)) {
                if (city.equals(event.get("city")) && ((String) event.get("type")).startsWith("city.geocode-")) {
                    return event;
                }
            }
        }
        throw new AssertionError("no geocode outcome for city " + city + " in " + eventsAfter(after));
    }

    @SuppressWarnings("unchecked")
    private long deadLetters() throws Exception {
        Map<String, Object> jobs = (Map<String, Object>) ((Map<String, Object>) getJson("/actuator/storh").get("queues")).get("jobs");
        return ((Number) jobs.get("dead")).longValue();
    }

    @Autowired
    javax.sql.DataSource dataSource;

    @Test
    @Order(6)
    void sqlMirrorGroupsByCountryAsTheRepositoryCounts() throws Exception {
        Map<String, Long> sql = new java.util.LinkedHashMap<>();
        try (var c = dataSource.getConnection(); var rs = c.createStatement().executeQuery(
                "SELECT country, COUNT(*) FROM storh_cities GROUP BY country ORDER BY country")) {
            while (rs.next()) {
                sql.put(rs.getString(1), rs.getLong(2));
            }
        }
        Map<String, Object> bundled = bundledCounts();
        assertThat(sql).hasSizeGreaterThan(200).containsEntry("RO", (Long) bundled.get("RO"));
        assertThat(sql.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(((Number) bundled.get("total")).longValue());
        sql.forEach((country, count) -> assertThat(cities.countByCountry(country)).as(country).isEqualTo(count));
        @SuppressWarnings("unchecked")
        Map<String, Object> mirror = (Map<String, Object>) ((Map<String, Object>) getJson("/actuator/health")
                .get("components")).get("storhMirror");
        assertThat(mirror.get("status")).isEqualTo("UP");
    }
}

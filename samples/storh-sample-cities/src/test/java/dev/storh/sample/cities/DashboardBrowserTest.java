package dev.storh.sample.cities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Starts the sample on a real port (on the first {@value #PLACES} places of the bundled data set,
 * so the import takes seconds) and drives Debian's headless chromium through chromedriver: the
 * dashboard at {@code /storh} loads without console errors, draws 256 bars for {@code cities}
 * adding up to the record count, follows a {@code POST /cities}, names a planted stale writer
 * marker, and runs "Verify now" through the endpoint. The screenshot is kept under
 * {@code target/dashboard/}. Skipped, saying why, when chromium or chromedriver is missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"management.endpoint.storh.access=unrestricted", "storh.dashboard.refresh=1s"})
class DashboardBrowserTest {

    private static final int PLACES = 5_000;
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String BARS = "svg.chart[data-collection='cities'] rect.bar";

    @TempDir
    static Path root;

    @TempDir
    static Path work;

    private static WebDriver driver;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("storh.root", () -> root.toString());
        registry.add("cities.import.resource", () -> "file:" + firstPlaces());
    }

    /** The first places of the bundled data set, as plain JSONL (written once, when the app starts). */
    private static synchronized Path firstPlaces() {
        Path file = work.resolve("cities-" + PLACES + ".jsonl");
        if (Files.exists(file)) {
            return file;
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                DashboardBrowserTest.class.getResourceAsStream("/cities.jsonl.gz")), StandardCharsets.UTF_8));
                BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < PLACES; i++) {
                out.write(in.readLine());
                out.write('\n');
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not cut the bundled data set to " + PLACES + " places", e);
        }
        return file;
    }

    @BeforeAll
    static void startBrowser() throws IOException {
        String missing = !Files.isExecutable(CHROMIUM) ? CHROMIUM.toString()
                : !Files.isExecutable(CHROMEDRIVER) ? CHROMEDRIVER.toString() : null;
        if (missing != null) {
            System.out.println("DashboardBrowserTest skipped: " + missing + " is not installed"
                    + " (apt-get install -y chromium chromium-driver)");
        }
        assumeTrue(missing == null, () -> missing + " is not installed (apt-get install -y chromium chromium-driver)");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1200",
                "--user-data-dir=" + Files.createTempDirectory(work, "chromium-profile"));
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(work.resolve("chromedriver.log").toFile())
                .build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopBrowser() {
        if (driver != null) {
            driver.quit();
        }
    }

    @Test
    void theDashboardDrawsTheBucketsAndFollowsWritesAndWriters() throws Exception {
        driver.get("http://localhost:" + port + "/storh");
        long records = recordCount();
        assertThat(records).isEqualTo(PLACES);

        // 256 bars whose values add up to the record count shown on the page and served by the app
        waitUntil("256 bars for cities adding up to " + records, () -> bars().size() == 256 && sum(bars()) == records);
        assertThat(pageRecords()).isEqualTo(records);
        assertThat(text("#collections-cities svg.chart")).contains("max", "mean", "min");
        assertThat(driver.findElement(By.cssSelector("#updated")).getText()).startsWith("Updated ");
        assertThat(driver.findElements(By.cssSelector("#queues-jobs svg.chart rect.bar"))).hasSizeGreaterThanOrEqualTo(3);
        assertThat(text("#logs-events")).contains("Segments");

        // a new city shows up at the next refresh
        HttpResponse<String> created = send("POST", "/cities",
                "{\"name\":\"Dashboardville\",\"lat\":\"46.77\",\"lng\":\"23.6\",\"country\":\"RO\",\"admin1\":\"13\",\"admin2\":\"\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(recordCount()).isEqualTo(records + 1);
        waitUntil("the page follows POST /cities", () -> pageRecords() == records + 1 && sum(bars()) == records + 1);

        // a crashed writer's marker is named as stale
        Path marker = plantStaleMarker(root.resolve("cities"));
        waitUntil("the stale marker is shown", () -> driver.findElements(By.cssSelector("#collections-cities li.stale"))
                .stream().anyMatch(li -> li.getText().contains(marker.getFileName().toString())));
        assertThat(text("#collections-cities li.stale")).startsWith("STALE");

        // with unrestricted access the page offers maintenance, which goes through the endpoint
        driver.findElement(By.cssSelector("#collections-cities button[data-operation='verify']")).click();
        waitUntil("Verify now finished", () -> text("#collections-cities .action-result").startsWith("Verify now: done"));
        waitUntil("the last verify is shown", () -> text("#collections-cities [data-field='last-verify']").startsWith("OK"));
        assertThat(text("#collections-cities [data-field='bytes']")).endsWith("(read by the last verify)");

        Path shots = Path.of("target", "dashboard");
        Files.createDirectories(shots);
        File shot = ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), shots.resolve("dashboard.png"), StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(shots.resolve("dashboard.png"))).isGreaterThan(10_000);

        // without colour: every bar names its bucket and value in text
        Object untitled = ((JavascriptExecutor) driver).executeScript("return Array.from(document.querySelectorAll(arguments[0]))"
                + ".filter(r => !/^bucket [0-9a-f]{2}: [0-9,]+ records$/.test(r.textContent)).length;", BARS);
        assertThat(((Number) untitled).intValue()).isZero();

        // a narrow screen: one column, nothing wider than the window
        driver.manage().window().setSize(new Dimension(400, 900));
        waitUntil("the page fits 400 px", () -> ((Number) ((JavascriptExecutor) driver).executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth;")).intValue() <= 0);
        File narrow = ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(narrow.toPath(), shots.resolve("dashboard-narrow.png"), StandardCopyOption.REPLACE_EXISTING);

        List<String> errors = consoleErrors();
        assertThat(errors).as("browser console errors").isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private List<Long> bars() {
        List<?> counts = (List<?>) ((JavascriptExecutor) driver).executeScript(
                "return Array.from(document.querySelectorAll(arguments[0])).map(r => Number(r.getAttribute('data-count')));",
                BARS);
        List<Long> values = new ArrayList<>();
        counts.forEach(c -> values.add(((Number) c).longValue()));
        return values;
    }

    private static long sum(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sum();
    }

    private long pageRecords() {
        String shown = text("#collections-cities [data-field='records']");
        return shown.isEmpty() ? -1 : Long.parseLong(shown.replace(",", ""));
    }

    private String text(String css) {
        return driver.findElements(By.cssSelector(css)).stream().findFirst().map(e -> e.getText().trim()).orElse("");
    }

    private void waitUntil(String what, java.util.function.BooleanSupplier condition) {
        new WebDriverWait(driver, WAIT).withMessage(what).ignoring(RuntimeException.class)
                .until(d -> condition.getAsBoolean());
    }

    private List<String> consoleErrors() {
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
            if (entry.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()) {
                errors.add(entry.getMessage());
            }
        }
        return errors;
    }

    @SuppressWarnings("unchecked")
    private long recordCount() throws Exception {
        HttpResponse<String> page = send("GET", "/cities?page=0&size=1", null);
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        Map<String, Object> body = json.readValue(page.body(), Map.class);
        return ((Number) ((Map<String, Object>) body.get("page")).get("totalElements")).longValue();
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** What a writer that crashed leaves: a marker named after the pid of a process that has exited. */
    private static Path plantStaleMarker(Path collection) throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        Path writers = Files.createDirectories(collection.resolve(".storh").resolve("writers"));
        return Files.createFile(writers.resolve(exited.pid() + ".0badc0de"));
    }
}

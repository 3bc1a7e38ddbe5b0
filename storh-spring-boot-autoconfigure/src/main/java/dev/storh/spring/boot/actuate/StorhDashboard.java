package dev.storh.spring.boot.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.util.HtmlUtils;

/**
 * The storh dashboard: one HTML page with its script and style sheet, all served from the jar
 * (nothing is fetched from elsewhere). The page reads the {@code storh} endpoint's JSON
 * ({@link StorhEndpoint}) in the browser and redraws every refresh: per collection a labelled
 * bar chart of the 256 bucket sizes with min, mean and max marked, the record count, indexes,
 * live and stale writer markers, the last verify with its errors and a running verify's
 * progress; per log its segments, records and bytes; per queue its job counts. With
 * {@code writable}, it offers "Verify now" and "Repair", which POST to the same endpoint, so the
 * endpoint's own access rules and security apply to them.
 * <p>
 * Routes: {@code GET <path>} (the page), {@code GET <path>/dashboard.js},
 * {@code GET <path>/dashboard.css}. Immutable and thread-safe.
 */
public class StorhDashboard {

    private static final String RESOURCES = "dashboard/";

    private final String path;

    private final String endpointPath;

    private final boolean writable;

    private final Duration refresh;

    private final String page;

    private final String script;

    private final String styles;

    /**
     * @param path where the page is served, e.g. {@code /storh}: starts with {@code /}, no
     * trailing {@code /}
     * @param endpointPath the {@code storh} endpoint's path on the same server, e.g.
     * {@code /actuator/storh}
     * @param writable whether the endpoint allows its write operations (then the page shows
     * them)
     * @param refresh time between two reads of the endpoint, at least 500 ms
     * @throws IllegalArgumentException when a path is malformed or the refresh too short
     */
    public StorhDashboard(String path, String endpointPath, boolean writable, Duration refresh) {
        Assert.isTrue(path != null && path.startsWith("/") && (path.length() == 1 || !path.endsWith("/")),
                () -> "storh.dashboard.path must start with '/' and not end with '/': '" + path + "'");
        Assert.isTrue(path.length() > 1, "storh.dashboard.path must not be '/'");
        Assert.isTrue(endpointPath != null && endpointPath.startsWith("/"),
                () -> "The storh endpoint path must start with '/': '" + endpointPath + "'");
        Assert.isTrue(refresh != null && refresh.toMillis() >= 500,
                () -> "storh.dashboard.refresh must be at least 500ms: " + refresh);
        this.path = path;
        this.endpointPath = endpointPath;
        this.writable = writable;
        this.refresh = refresh;
        this.page = resource("index.html");
        this.script = resource("dashboard.js");
        this.styles = resource("dashboard.css");
    }

    /**
     * @return the page's path
     */
    public String path() {
        return this.path;
    }

    /**
     * @return whether the page offers the endpoint's write operations
     */
    public boolean writable() {
        return this.writable;
    }

    /**
     * @return the page and its two assets as functional Spring MVC routes
     */
    public RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
            .GET(this.path, this::page)
            .GET(this.path + "/", this::page)
            .GET(this.path + "/dashboard.js", (request) -> asset(this.script, "text/javascript"))
            .GET(this.path + "/dashboard.css", (request) -> asset(this.styles, "text/css"))
            .build();
    }

    /**
     * @param request the page request
     * @return the HTML page, with the endpoint's URL (under the request's context path), whether
     * write operations are shown and the refresh interval in its {@code body} data attributes
     */
    ServerResponse page(ServerRequest request) {
        String context = request.requestPath().contextPath().value();
        String html = this.page.replace("{{base}}", HtmlUtils.htmlEscape(context + this.path))
            .replace("{{endpoint}}", HtmlUtils.htmlEscape(context + this.endpointPath))
            .replace("{{writable}}", Boolean.toString(this.writable))
            .replace("{{refreshMs}}", Long.toString(this.refresh.toMillis()));
        return ServerResponse.ok()
            .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
            .cacheControl(CacheControl.noStore())
            .header("X-Content-Type-Options", "nosniff")
            .header("Content-Security-Policy",
                    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:")
            .body(html);
    }

    private static ServerResponse asset(String content, String type) {
        return ServerResponse.ok()
            .contentType(new MediaType(MediaType.parseMediaType(type), StandardCharsets.UTF_8))
            .cacheControl(CacheControl.noCache())
            .header("X-Content-Type-Options", "nosniff")
            .body(content);
    }

    private static String resource(String name) {
        try (InputStream in = StorhDashboard.class.getResourceAsStream(RESOURCES + name)) {
            Assert.state(in != null, () -> "Dashboard resource missing from the jar: " + RESOURCES + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Could not read dashboard resource " + RESOURCES + name, ex);
        }
    }

}

package dev.storh.spring.boot.autoconfigure.dashboard;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The storh dashboard ({@code storh.dashboard.*}). Immutable, bound through its constructor.
 *
 * @param enabled Whether to serve the dashboard page (when the app is a servlet web app and the
 *     storh endpoint is available on the application's port).
 * @param path Path of the dashboard page; starts with '/', no trailing '/'.
 * @param refresh Time between two reads of the storh endpoint by the page; at least 500ms.
 */
@ConfigurationProperties("storh.dashboard")
public record StorhDashboardProperties(@DefaultValue("true") boolean enabled, @DefaultValue("/storh") String path,
        @DefaultValue("2s") Duration refresh) {

}

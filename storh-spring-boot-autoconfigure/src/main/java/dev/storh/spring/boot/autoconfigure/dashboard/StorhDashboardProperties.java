package dev.storh.spring.boot.autoconfigure.dashboard;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The storh dashboard ({@code storh.dashboard.*}).
 */
@ConfigurationProperties("storh.dashboard")
public class StorhDashboardProperties {

    /**
     * Whether to serve the dashboard page (when the app is a servlet web app and the storh
     * endpoint is available on the application's port).
     */
    private boolean enabled = true;

    /**
     * Path of the dashboard page; starts with '/', no trailing '/'.
     */
    private String path = "/storh";

    /**
     * Time between two reads of the storh endpoint by the page; at least 500ms.
     */
    private Duration refresh = Duration.ofSeconds(2);

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getPath() {
        return this.path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public Duration getRefresh() {
        return this.refresh;
    }

    public void setRefresh(Duration refresh) {
        this.refresh = refresh;
    }

}

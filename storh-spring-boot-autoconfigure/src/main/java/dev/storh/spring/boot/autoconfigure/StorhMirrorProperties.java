package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.storh.mirror.SqlMirror;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the SQL mirror, prefix {@code storh.mirror}: which collections are copied into
 * tables of the application's {@code DataSource}, and when.
 */
@ConfigurationProperties("storh.mirror")
public class StorhMirrorProperties extends StorhScheduleProperties {

    /**
     * Collections (and configured logs) to mirror, one table each; the mirror is off when empty.
     */
    private List<String> collections = new ArrayList<>();

    /**
     * Table name prefix, letters, digits and underscores.
     */
    private String prefix = SqlMirror.DEFAULT_PREFIX;

    /**
     * Whether to create missing tables at startup.
     */
    private boolean install = true;

    /**
     * Whether to push every collection once at startup (on the starting thread).
     */
    private boolean pushOnStartup = false;

    /**
     * Whether each repository save or delete in a mirrored collection is flushed to its table at
     * once, on the writing thread.
     */
    private boolean pushOnWrite = false;

    /**
     * How old the verify shown by the health endpoint may be (a verify reads every row and
     * record).
     */
    private Duration healthVerifyMaxAge = Duration.ofMinutes(1);

    public List<String> getCollections() {
        return this.collections;
    }

    public void setCollections(List<String> collections) {
        this.collections = collections;
    }

    public String getPrefix() {
        return this.prefix;
    }

    public void setPrefix(String prefix) {
        this.prefix = prefix;
    }

    public boolean isInstall() {
        return this.install;
    }

    public void setInstall(boolean install) {
        this.install = install;
    }

    public boolean isPushOnStartup() {
        return this.pushOnStartup;
    }

    public void setPushOnStartup(boolean pushOnStartup) {
        this.pushOnStartup = pushOnStartup;
    }

    public boolean isPushOnWrite() {
        return this.pushOnWrite;
    }

    public void setPushOnWrite(boolean pushOnWrite) {
        this.pushOnWrite = pushOnWrite;
    }

    public Duration getHealthVerifyMaxAge() {
        return this.healthVerifyMaxAge;
    }

    public void setHealthVerifyMaxAge(Duration healthVerifyMaxAge) {
        this.healthVerifyMaxAge = healthVerifyMaxAge;
    }

}

package dev.storh.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.List;

import dev.storh.mirror.SqlMirror;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the SQL mirror, prefix {@code storh.mirror}: which collections are copied into
 * tables of the application's {@code DataSource}, and when. Immutable, bound through its
 * constructor.
 *
 * @param cron Cron expression (Spring's six fields, e.g. '0 0 3 * * *') of the runs, in the
 *     server's time zone. When set, 'interval' is not used.
 * @param interval Time between the end of one run and the start of the next (e.g. 6h); the first
 *     run starts one interval after startup. Used when no 'cron' is set.
 * @param collections Collections (and configured logs) to mirror, one table each; the mirror is
 *     off when empty.
 * @param prefix Table name prefix, letters, digits and underscores.
 * @param install Whether to create missing tables at startup.
 * @param pushOnStartup Whether to push every collection once at startup (on the starting thread).
 * @param pushOnWrite Whether each repository save or delete in a mirrored collection is flushed to
 *     its table at once, on the writing thread.
 * @param healthVerifyMaxAge How old the verify shown by the health endpoint may be (a verify reads
 *     every row and record).
 */
@ConfigurationProperties("storh.mirror")
public record StorhMirrorProperties(String cron, Duration interval, @DefaultValue List<String> collections,
        String prefix, @DefaultValue("true") boolean install, boolean pushOnStartup, boolean pushOnWrite,
        @DefaultValue("1m") Duration healthVerifyMaxAge) implements StorhScheduleProperties {

    /**
     * Fills the default table prefix ({@link SqlMirror#DEFAULT_PREFIX}) when none is set.
     */
    public StorhMirrorProperties {
        prefix = (prefix != null) ? prefix : SqlMirror.DEFAULT_PREFIX;
    }

}

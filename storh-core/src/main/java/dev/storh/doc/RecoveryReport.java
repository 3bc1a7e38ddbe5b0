package dev.storh.doc;

import dev.storh.doc.index.ReindexReport;

/**
 * What {@link DocStore#open} did to recover from a writer that crashed: whether a stale writer
 * marker was found, how many orphan temp files the open swept, and the index rebuild that
 * followed (which skips record files it cannot read, listing them in
 * {@link ReindexReport#skipped()}). Immutable.
 *
 * @param crashedWriter whether a writer of this collection died while it could write
 * @param removedTempFiles orphan temp files deleted by the open-time sweep
 * @param reindexed the open-time index rebuild, or {@code null} when none ran (no crashed
 *     writer, or no index defined)
 */
public record RecoveryReport(boolean crashedWriter, int removedTempFiles, ReindexReport reindexed) {
}

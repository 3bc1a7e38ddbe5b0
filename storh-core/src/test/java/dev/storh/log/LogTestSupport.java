package dev.storh.log;

import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Ids and small helpers shared by the log tests. */
final class LogTestSupport {

    /** The spec's base timestamp: {@code id[n]} has timestamp {@code BASE_MS + n}. */
    static final long BASE_MS = 1_700_000_000_000L;

    private LogTestSupport() {
    }

    /**
     * @param n a small number
     * @return the spec's {@code id[n]}: timestamp {@code BASE_MS + n}, ids increasing with n
     */
    static String id(int n) {
        String min = UuidV7.minForTimestampMs(BASE_MS + n);
        return min.substring(0, 24) + String.format(Locale.ROOT, "%012x", n + 1);
    }

    /**
     * @param stream a record stream, closed here
     * @return the ids in stream order
     */
    static List<String> ids(Stream<StorageRecord> stream) {
        try (stream) {
            return stream.map(StorageRecord::id).toList();
        }
    }

    static SegmentedLogOptions opts(long maxBytes, int interval) {
        return SegmentedLogOptions.builder().maxSegmentBytes(maxBytes).sparseIndexInterval(interval).build();
    }
}

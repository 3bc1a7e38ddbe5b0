package dev.storh.queue;

import dev.storh.fs.FramedLine;
import dev.storh.id.UuidV7;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Ids, raw log lines and a settable clock for the queue tests. */
final class QueueTestSupport {

    private QueueTestSupport() {
    }

    /**
     * @param n offset in ms
     * @return {@code id[n]} of the spec: a UUIDv7 whose timestamp is 1_700_000_000_000 + n
     */
    static String id(int n) {
        return UuidV7.minForTimestampMs(1_700_000_000_000L + n);
    }

    /** Frames JSON text as one queue line. */
    static byte[] framed(String json) {
        return FramedLine.encode(json.getBytes(StandardCharsets.UTF_8));
    }

    static void append(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.APPEND);
    }

    static void append(Path file, String text) throws IOException {
        append(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** A clock tests move by hand, so timeouts are tested without sleeping. */
    static final class MutableClock extends Clock {
        private volatile long millis;

        MutableClock(long epochSeconds) {
            this.millis = epochSeconds * 1000;
        }

        void advanceSeconds(long seconds) {
            millis += seconds * 1000;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }
    }
}

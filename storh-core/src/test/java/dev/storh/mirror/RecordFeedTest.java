package dev.storh.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.schema.Schema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push's read-ahead: every record in order with its text and hash, the source's stream
 * closed on every way out (end, early stop, stream failure, SQL failure), failures as thrown.
 */
class RecordFeedTest {

    @TempDir
    Path root;

    /**
     * A source of {@code n} generated records; its stream fails at {@code failAt} (or never) and
     * record {@code duplicateAt} has the slug of record 0 (or none has).
     */
    static final class Generated implements MirrorSource {
        final List<String> ids = new ArrayList<>();
        /** The live records by id, in the order the stream gives them. */
        final Map<String, Map<String, Object>> records = new LinkedHashMap<>();
        final int failAt;
        final int duplicateAt;
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final StorageException failure = new StorageException("injected stream failure");

        Generated(int n, int failAt) {
            this(n, failAt, -1);
        }

        Generated(int n, int failAt, int duplicateAt) {
            this.failAt = failAt;
            this.duplicateAt = duplicateAt;
            for (int i = 0; i < n; i++) {
                String id = UuidV7.generate();
                ids.add(id);
                records.put(id, data(i));
            }
        }

        Map<String, Object> data(int i) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("slug", "s-" + (i == duplicateAt ? 0 : i));
            d.put("n", (long) i);
            d.put("text", "ü\"" + i);
            return d;
        }

        @Override
        public Stream<StorageRecord> stream() {
            opened.incrementAndGet();
            Iterator<Map.Entry<String, Map<String, Object>>> live = new ArrayList<>(records.entrySet()).iterator();
            Iterator<StorageRecord> it = new Iterator<>() {
                int i;

                @Override
                public boolean hasNext() {
                    return live.hasNext();
                }

                @Override
                public StorageRecord next() {
                    if (i == failAt) {
                        throw failure;
                    }
                    Map.Entry<String, Map<String, Object>> e = live.next();
                    i++;
                    return new StorageRecord(e.getKey(), e.getValue());
                }
            };
            return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED), false)
                    .onClose(closed::incrementAndGet);
        }

        @Override
        public StorageRecord put(Map<String, ?> data, String id) {
            Map<String, Object> copy = new LinkedHashMap<>(data);
            records.put(id, copy);
            return new StorageRecord(id, copy);
        }

        @Override
        public Optional<StorageRecord> get(String id) {
            Map<String, Object> data = records.get(id);
            return data == null ? Optional.empty() : Optional.of(new StorageRecord(id, data));
        }

        @Override
        public boolean delete(String id) {
            return records.remove(id) != null;
        }
    }

    private static boolean feedThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("storh-mirror-feed") && t.isAlive());
    }

    @Test
    void everyRecordComesInOrderWithItsTextAndHashAndTheStreamIsClosed() {
        Generated source = new Generated(5000, -1);
        List<String> seen = new ArrayList<>();
        try (RecordFeed feed = RecordFeed.start(source)) {
            for (RecordFeed.Row row = feed.next(); row != null; row = feed.next()) {
                int i = seen.size();
                assertThat(row.record().id()).isEqualTo(source.ids.get(i));
                assertThat(row.text()).isEqualTo(RowCodec.dataText(source.data(i)));
                assertThat(row.hash()).isEqualTo(RowCodec.hash(row.text()));
                seen.add(row.record().id());
            }
            assertThat(feed.next()).isNull();
        }
        assertThat(seen).isEqualTo(source.ids);
        assertThat(source.closed).hasValue(1);
        assertThat(feedThreadAlive()).isFalse();
    }

    @Test
    void stoppingEarlyClosesTheStreamBeforeCloseReturns() {
        Generated source = new Generated(30_000, -1);
        try (RecordFeed feed = RecordFeed.start(source)) {
            for (int i = 0; i < 10; i++) {
                assertThat(feed.next()).isNotNull();
            }
        }
        assertThat(source.opened).hasValue(1);
        assertThat(source.closed).hasValue(1);
        assertThat(feedThreadAlive()).isFalse();
    }

    @Test
    void aStreamFailureComesOutAfterTheRecordsBeforeItAsThrown() {
        Generated source = new Generated(3000, 1300);
        int read = 0;
        try (RecordFeed feed = RecordFeed.start(source)) {
            while (read < 1300) {
                assertThat(feed.next()).isNotNull();
                read++;
            }
            assertThatThrownBy(feed::next).isSameAs(source.failure);
        }
        assertThat(source.closed).hasValue(1);
    }

    @Test
    void aFailedPushRollsBackClosesTheStreamAndStopsTheFeed() throws Exception {
        Schema schema = Schema.collection("g").string("slug").unique().integer("n").range();
        try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("feed.db"))) {
            Generated clash = new Generated(4000, -1, 2500); // slug s-0 again: the unique index refuses it
            SqlMirror mirror = SqlMirror.builder().connection(conn).build().collection(clash, "g", schema);
            mirror.install();
            assertThatThrownBy(mirror::push).isInstanceOf(StorageException.class).hasMessageContaining("SQL mirror statement failed");
            assertThat(clash.closed).hasValue(1);
            assertThat(feedThreadAlive()).isFalse();
            assertThat(rows(conn, mirror.table("g"))).isZero();
            assertThat(conn.getAutoCommit()).isTrue();

            Generated failing = new Generated(4000, 3900);
            SqlMirror second = SqlMirror.builder().connection(conn).build().collection(failing, "h", schema);
            second.install();
            assertThatThrownBy(second::push).isSameAs(failing.failure);
            assertThat(failing.closed).hasValue(1);
            assertThat(rows(conn, second.table("h"))).isZero();

            Generated fine = new Generated(4000, -1);
            SqlMirror third = SqlMirror.builder().connection(conn).build().collection(fine, "i", schema);
            third.install();
            assertThat(third.push()).isEqualTo(new PushResult(4000, 0, 0, 0));
            assertThat(third.push()).isEqualTo(new PushResult(0, 0, 0, 4000));
            assertThat(rows(conn, third.table("i"))).isEqualTo(4000);
            assertThat(fine.closed).hasValue(2);
        }
    }

    private static long rows(Connection conn, String table) throws Exception {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + table + "\"")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

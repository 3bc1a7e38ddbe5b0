package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.CorruptRecordException;
import dev.storh.StorageRecord;
import dev.storh.query.RecordQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stream()} reads several record files ahead on other threads, yet gives the records in id
 * order, equal to {@code get}; corrupt files reach the error handler on the consumer's thread in id
 * order (or are thrown at their turn, after the records before them); records deleted while the
 * stream runs ahead are skipped or given, never half-read; the id filters and the limit still hold.
 */
class StreamReadAheadTest {

    @TempDir
    Path root;

    @Test
    void readsFromThePageCacheStayOnTheConsumersThread() {
        List<RecordListing.Entry> entries = entries(200);
        List<String> threads = new ArrayList<>();
        StreamReadAhead ahead = new StreamReadAhead(entries.iterator(), entry -> {
            threads.add(Thread.currentThread().getName());
            return record(entry);
        });
        List<String> got = drain(ahead);
        assertThat(got).isEqualTo(entries.stream().map(RecordListing.Entry::id).toList());
        assertThat(ahead.readingAhead()).isFalse();
        assertThat(threads).containsOnly(Thread.currentThread().getName());
    }

    @Test
    void slowReadsMoveToThePoolInOrderWithFailuresAtTheirTurn() {
        List<RecordListing.Entry> entries = entries(120);
        String failing = entries.get(90).id();
        java.util.Set<String> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        StreamReadAhead ahead = new StreamReadAhead(entries.iterator(), entry -> {
            java.util.concurrent.locks.LockSupport.parkNanos(2 * StreamReadAhead.slowReadNanos);
            threads.add(Thread.currentThread().getName());
            if (entry.id().equals(failing)) {
                throw new CorruptRecordException("bad " + entry.id(), entry.path(), null);
            }
            return record(entry);
        });
        List<String> got = new ArrayList<>();
        assertThatThrownBy(() -> {
            while (ahead.hasNext()) {
                RecordListing.Entry entry = ahead.next();
                assertThat(ahead.take(entry).id()).isEqualTo(entry.id());
                got.add(entry.id());
            }
        }).isInstanceOf(CorruptRecordException.class).hasMessageContaining("bad " + failing);
        assertThat(got).as("every record before the failing one, in order")
                .isEqualTo(entries.subList(0, 90).stream().map(RecordListing.Entry::id).toList());
        assertThat(ahead.readingAhead()).isTrue();
        assertThat(threads).contains(Thread.currentThread().getName(), "storh-read-ahead");
        ahead.cancel();
    }

    private static List<RecordListing.Entry> entries(int n) {
        List<RecordListing.Entry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String id = String.format("%05d", i);
            entries.add(new RecordListing.Entry(id, Path.of(id + ".jsonc")));
        }
        return entries;
    }

    private static StorageRecord record(RecordListing.Entry entry) {
        return new StorageRecord(entry.id(), Map.of("id", entry.id()));
    }

    private static List<String> drain(StreamReadAhead ahead) {
        List<String> got = new ArrayList<>();
        while (ahead.hasNext()) {
            RecordListing.Entry entry = ahead.next();
            got.add(ahead.take(entry).id());
        }
        return got;
    }

    @Test
    void readAheadKeepsOrderErrorsAndFilters() throws Exception {
        long saved = StreamReadAhead.slowReadNanos;
        StreamReadAhead.slowReadNanos = 0; // every read counts as a disk read: read ahead from the 17th file on
        try {
            readAheadThroughTheStore();
        } finally {
            StreamReadAhead.slowReadNanos = saved;
        }
    }

    private void readAheadThroughTheStore() throws Exception {
        long seed = System.nanoTime();
        System.out.println("StreamReadAheadTest seed " + seed);
        Random random = new Random(seed);
        try (DocStore store = DocStore.open(root, "s")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                ids.add(store.put(Map.of("i", (long) i)).id());
            }
            ids.sort(null);
            try (Stream<StorageRecord> all = store.stream()) {
                List<StorageRecord> records = all.toList();
                assertThat(records).extracting(StorageRecord::id).as("seed %d", seed).isEqualTo(ids);
                for (StorageRecord r : records) {
                    assertThat(r.data()).isEqualTo(store.get(r.id()).orElseThrow().data());
                }
            }
            String from = ids.get(random.nextInt(100));
            try (Stream<StorageRecord> some = store.stream(RecordQuery.all().after(from).limit(50))) {
                assertThat(some.map(StorageRecord::id).toList()).isEqualTo(ids.subList(ids.indexOf(from) + 1, ids.indexOf(from) + 51));
            }
            List<String> corrupt = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                corrupt.add(ids.get(20 + random.nextInt(260)));
            }
            corrupt = new ArrayList<>(new java.util.TreeSet<>(corrupt));
            for (String id : corrupt) {
                Files.writeString(store.pathForId(id), "{not json");
            }
            DocStore reopened = DocStore.open(root, "s"); // a fresh record cache: the files are read
            try {
                List<String> handled = new ArrayList<>();
                Thread consumer = Thread.currentThread();
                try (Stream<StorageRecord> all = reopened.stream(RecordQuery.all().continueOnError((id, e) -> {
                    assertThat(Thread.currentThread()).isSameAs(consumer);
                    handled.add(id);
                }))) {
                    List<String> got = all.map(StorageRecord::id).toList();
                    List<String> expected = new ArrayList<>(ids);
                    expected.removeAll(corrupt);
                    assertThat(got).as("seed %d", seed).isEqualTo(expected);
                }
                assertThat(handled).as("seed %d: handled in id order", seed).isEqualTo(corrupt);
                List<String> before = new ArrayList<>();
                try (Stream<StorageRecord> all = reopened.stream()) {
                    Iterator<StorageRecord> it = all.iterator();
                    assertThatThrownBy(() -> it.forEachRemaining(r -> before.add(r.id()))).isInstanceOf(CorruptRecordException.class);
                }
                assertThat(before).as("seed %d: the records before the first corrupt one", seed)
                        .isEqualTo(ids.subList(0, ids.indexOf(corrupt.get(0))));
                for (String id : corrupt) {
                    reopened.delete(id);
                }
                List<String> live = new ArrayList<>(ids);
                live.removeAll(corrupt);
                List<String> deleted = new ArrayList<>();
                List<String> got = new ArrayList<>();
                try (Stream<StorageRecord> all = reopened.stream()) {
                    Iterator<StorageRecord> it = all.iterator();
                    for (int i = 0; it.hasNext(); i++) {
                        got.add(it.next().id());
                        if (i % 37 == 5 && live.indexOf(got.get(got.size() - 1)) + 2 < live.size()) {
                            String next = live.get(live.indexOf(got.get(got.size() - 1)) + 2); // likely read ahead already
                            reopened.delete(next);
                            deleted.add(next);
                        }
                    }
                }
                List<String> left = new ArrayList<>(live);
                left.removeAll(deleted);
                assertThat(got).as("seed %d: every record not deleted, in order", seed).containsSubsequence(left);
                assertThat(live).containsSubsequence(got);
            } finally {
                reopened.close();
            }
        }
    }
}

package dev.storh.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.StoreFiles;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueCounts;
import dev.storh.queue.QueueOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engines' behaviour on a byte seam, run on each backend (the local file system in core, blob
 * storage in its module): the queue's state machine, compaction, reopening and concurrent claims;
 * the log's reads by id, stream and query, its segment rolls, compaction, reopening and concurrent
 * appends; the DocStore's reads, writes and deletes in id order, its index queries, unique values,
 * verify, repair and reindex. A subclass gives the engines' {@code files(...)} option; every test uses stores of its
 * own below a fresh {@link #root}.
 */
public abstract class EngineSeamContract {

    /** Where the engines believe their stores are (a real, empty folder; a remote backend may leave it empty). */
    @TempDir
    protected Path root;

    /**
     * @param root the folder the stores are below
     * @return makes the seam of a store folder below {@code root}
     */
    protected abstract Function<Path, StoreFiles> files(Path root);

    /**
     * @return the parts a backend cannot run yet ({@code "doc"}: the DocStore's records,
     *     {@code "doc-indexes"}: its index files), each with the reason, printed when its tests are
     *     skipped; none by default
     */
    protected Map<String, String> notYetOnThisBackend() {
        return Map.of();
    }

    private void requires(String part) {
        String reason = notYetOnThisBackend().get(part);
        Assumptions.assumeTrue(reason == null, () -> part + " not yet on this backend: " + reason);
    }

    private Queue openQueue() {
        return Queue.open(root, "jobs", QueueOptions.builder().files(files(root)).lockTimeout(Duration.ofSeconds(60)).build());
    }

    private SegmentedLog openLog(long segmentBytes) {
        return SegmentedLog.open(root, "audit", SegmentedLogOptions.builder().files(files(root))
                .lockTimeout(Duration.ofSeconds(60)).maxSegmentBytes(segmentBytes).build());
    }

    private static <T> List<T> inThreads(int threads, java.util.concurrent.Callable<List<T>> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<T>>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(work));
            }
            List<T> all = new ArrayList<>();
            for (Future<List<T>> f : futures) {
                all.addAll(f.get(300, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void queueJobsMoveThroughClaimRetryReleaseCompleteAndRequeue() {
        try (Queue queue = openQueue()) {
            List<String> ids = queue.enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L), Map.of("n", 3L)));
            assertThat(queue.counts()).isEqualTo(new QueueCounts(3, 0, 0));
            StorageRecord first = queue.claim().orElseThrow();
            assertThat(first.id()).isEqualTo(ids.get(0));
            assertThat(first.data()).containsEntry("n", 1L);
            assertThat(queue.retry(first.id(), Duration.ZERO)).isTrue();
            assertThat(queue.claimMany(5)).extracting(StorageRecord::id).containsExactlyInAnyOrderElementsOf(ids);
            queue.complete(ids.get(1));
            assertThat(queue.release(List.of(ids.get(2)))).isEqualTo(1);
            assertThat(queue.counts()).isEqualTo(new QueueCounts(1, 1, 1));
            assertThatThrownBy(() -> queue.complete(ids.get(1))).isInstanceOf(StorageException.class)
                    .hasMessageContaining(ids.get(1));
            assertThat(queue.requeueTimedOut(Duration.ZERO)).isEqualTo(1);
            assertThat(queue.counts()).isEqualTo(new QueueCounts(2, 0, 1));
            assertThat(queue.verify().ok()).isTrue();
            assertThat(queue.stats().records()).isEqualTo(3);
        }
    }

    @Test
    void queueStateSurvivesCompactionAndReopening() {
        List<String> ids;
        try (Queue queue = openQueue()) {
            ids = queue.enqueueMany(List.of(Map.of("n", 1L), Map.of("n", 2L), Map.of("n", 3L), Map.of("n", 4L)));
            queue.claimMany(2);
            queue.complete(ids.get(0));
            assertThat(queue.compact().ok()).isTrue();
            assertThat(queue.counts()).isEqualTo(new QueueCounts(2, 1, 1));
        }
        try (Queue queue = openQueue()) {
            assertThat(queue.counts()).isEqualTo(new QueueCounts(2, 1, 1));
            assertThat(queue.repair(Duration.ZERO).toMap()).containsEntry("requeued", 1L);
            List<StorageRecord> rest = queue.claimMany(10);
            assertThat(rest).extracting(StorageRecord::id).containsExactlyInAnyOrder(ids.get(1), ids.get(2), ids.get(3));
            assertThat(rest).filteredOn(r -> r.id().equals(ids.get(3))).singleElement()
                    .satisfies(r -> assertThat(r.data()).containsEntry("n", 4L));
            assertThat(queue.verify().ok()).isTrue();
        }
    }

    @Test
    void queueThreadsClaimEveryJobExactlyOnce() throws Exception {
        int jobs = 16;
        try (Queue queue = openQueue()) {
            List<Map<String, Object>> payloads = new ArrayList<>();
            for (int i = 0; i < jobs; i++) {
                payloads.add(Map.of("i", (long) i));
            }
            queue.enqueueMany(payloads);
            List<String> claimed = inThreads(4, () -> {
                List<String> mine = new ArrayList<>();
                for (Optional<StorageRecord> job = queue.claim(); job.isPresent(); job = queue.claim()) {
                    mine.add(job.get().id());
                    queue.complete(job.get().id());
                }
                return mine;
            });
            assertThat(claimed).doesNotHaveDuplicates().hasSize(jobs);
            assertThat(queue.counts()).isEqualTo(new QueueCounts(0, 0, jobs));
        }
    }

    @Test
    void logRecordsReadBackByIdInTheStreamAndThroughQueries() {
        Map<String, Map<String, Object>> expected = new LinkedHashMap<>();
        try (SegmentedLog log = openLog(SegmentedLogOptions.DEFAULT_MAX_SEGMENT_BYTES)) {
            for (int i = 0; i < 6; i++) {
                Map<String, Object> data = Map.of("kind", i % 2 == 0 ? "even" : "odd", "i", (long) i);
                expected.put(log.put(data).id(), data);
            }
            List<String> ids = new ArrayList<>(expected.keySet());
            assertThat(log.stream().map(StorageRecord::id).collect(Collectors.toList())).isEqualTo(ids);
            Map<String, Object> changed = Map.of("kind", "odd", "i", 100L);
            log.put(changed, ids.get(0));
            expected.put(ids.get(0), changed);
            assertThat(log.delete(ids.get(5))).isTrue();
            expected.remove(ids.get(5));
            assertThat(log.get(ids.get(0))).hasValueSatisfying(r -> assertThat(r.data()).isEqualTo(changed));
            assertThat(log.get(ids.get(5))).isEmpty();
            assertThat(log.count()).isEqualTo(5);
            assertThat(log.query().where("kind").eq("even").get()).extracting(StorageRecord::id)
                    .containsExactlyInAnyOrder(ids.get(2), ids.get(4));
            assertThat(log.query().where("i").gte(3L).count()).isEqualTo(3);
            assertThat(log.stream().collect(Collectors.toMap(StorageRecord::id, StorageRecord::data))).isEqualTo(expected);
        }
    }

    @Test
    void logSegmentsRollCompactAndReopenWithTheSameRecords() {
        Map<String, Map<String, Object>> expected = new LinkedHashMap<>();
        try (SegmentedLog log = openLog(SegmentedLogOptions.MIN_SEGMENT_BYTES)) {
            for (int i = 0; i < 10; i++) {
                Map<String, Object> data = Map.of("i", (long) i, "pad", "p".repeat(40));
                expected.put(log.put(data).id(), data);
            }
            List<String> ids = new ArrayList<>(expected.keySet());
            log.delete(ids.get(1));
            expected.remove(ids.get(1));
            assertThat(log.stats().segments()).as("rolled at %d bytes", SegmentedLogOptions.MIN_SEGMENT_BYTES)
                    .isGreaterThan(2);
            assertThat(log.compact().ok()).isTrue();
            assertThat(log.stream().collect(Collectors.toMap(StorageRecord::id, StorageRecord::data))).isEqualTo(expected);
        }
        try (SegmentedLog log = openLog(SegmentedLogOptions.MIN_SEGMENT_BYTES)) {
            assertThat(log.stream().collect(Collectors.toMap(StorageRecord::id, StorageRecord::data))).isEqualTo(expected);
            assertThat(log.verify().ok()).isTrue();
            assertThat(log.repair().ok()).isTrue();
            assertThat(log.count()).isEqualTo(9);
        }
    }

    @Test
    void logThreadsAppendWithNothingLostOrDuplicated() throws Exception {
        try (SegmentedLog log = openLog(1024)) {
            List<String> ids = inThreads(4, () -> {
                List<String> mine = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    mine.add(log.put(Map.of("i", (long) i, "thread", Thread.currentThread().getName())).id());
                }
                return mine;
            });
            Set<String> distinct = new HashSet<>(ids);
            assertThat(distinct).hasSize(24);
            List<String> streamed = log.stream().map(StorageRecord::id).collect(Collectors.toList());
            assertThat(streamed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
            List<String> sorted = new ArrayList<>(streamed);
            Collections.sort(sorted);
            assertThat(log.get(sorted.get(0))).isPresent();
        }
    }

    private DocStore openDocs() {
        return DocStore.open(root, "pages", DocStoreOptions.builder().files(files(root)).lockTimeout(Duration.ofSeconds(60))
                .build());
    }

    @Test
    void docRecordsPutGetDeleteAndStreamInIdOrder() {
        requires("doc");
        try (DocStore docs = openDocs()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                ids.add(docs.put(Map.of("title", "page " + i, "n", (long) i)).id());
            }
            Collections.sort(ids);
            assertThat(docs.stream().map(StorageRecord::id).collect(Collectors.toList())).as("id order across buckets")
                    .isEqualTo(ids);
            assertThat(docs.get(ids.get(3))).hasValueSatisfying(r -> assertThat(r.data()).containsKey("title"));
            docs.put(Map.of("title", "changed"), ids.get(3));
            assertThat(docs.get(ids.get(3))).hasValueSatisfying(r -> assertThat(r.data()).containsEntry("title", "changed"));
            assertThat(docs.delete(ids.get(0))).isTrue();
            assertThat(docs.delete(ids.get(0))).isFalse();
            assertThat(docs.get(ids.get(0))).isEmpty();
            assertThat(docs.exists(ids.get(1))).isTrue();
            assertThat(docs.count()).isEqualTo(7);
            assertThat(docs.ids().collect(Collectors.toList())).isEqualTo(ids.subList(1, 8));
        }
        try (DocStore docs = openDocs()) {
            assertThat(docs.count()).isEqualTo(7);
            assertThat(docs.verify().ok()).isTrue();
        }
    }

    @Test
    void docQueriesGoThroughIndexesAndUniqueValuesAreRefused() {
        requires("doc");
        requires("doc-indexes");
        try (DocStore docs = openDocs()) {
            docs.indexes().defineField("email", true, false).defineField("age", false, true).sync();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ids.add(docs.put(Map.of("email", "u" + i + "@example.org", "age", (long) (20 + i))).id());
            }
            assertThat(docs.query().where("email").eq("u2@example.org").get()).extracting(StorageRecord::id)
                    .containsExactly(ids.get(2));
            assertThat(docs.query().where("age").gte(23L).count()).isEqualTo(3);
            assertThat(docs.query().where("age").between(21L, 22L).get()).extracting(StorageRecord::id)
                    .containsExactlyInAnyOrder(ids.get(1), ids.get(2));
            assertThatThrownBy(() -> docs.put(Map.of("email", "u2@example.org", "age", 1L)))
                    .isInstanceOf(UniqueConstraintException.class).hasMessageContaining("email");
            docs.put(Map.of("email", "moved@example.org", "age", 22L), ids.get(2));
            assertThat(docs.query().where("email").eq("u2@example.org").count()).isZero();
            assertThat(docs.put(Map.of("email", "u2@example.org", "age", 1L)).id()).isNotNull();
            assertThat(docs.count()).isEqualTo(7);
        }
        try (DocStore docs = openDocs()) {
            assertThat(docs.reindex().toMap()).containsEntry("entries", 7L);
            assertThat(docs.query().where("email").eq("moved@example.org").count()).isEqualTo(1);
            assertThat(docs.verify().ok()).isTrue();
            assertThat(docs.repair().ok()).isTrue();
            assertThat(docs.query().where("age").lt(21L).count()).isEqualTo(2);
        }
    }

    @Test
    void docThreadsRacingForOneUniqueValueLeaveExactlyOneRecord() throws Exception {
        requires("doc");
        requires("doc-indexes");
        try (DocStore docs = openDocs()) {
            docs.indexes().defineField("email", true, false).sync();
            List<String> won = inThreads(4, () -> {
                List<String> mine = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    try {
                        mine.add(docs.put(Map.of("email", "same-" + i + "@example.org")).id());
                    } catch (UniqueConstraintException e) {
                        // another thread took the value
                    }
                }
                return mine;
            });
            assertThat(won).hasSize(3);
            assertThat(docs.count()).isEqualTo(3);
        }
    }
}

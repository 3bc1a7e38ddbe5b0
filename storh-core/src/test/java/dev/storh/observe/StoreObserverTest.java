package dev.storh.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueOptions;
import dev.storh.store.StoreKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The observer hook on real stores and files: what each data operation and fsync reports, from
 * many threads, and that an unset observer leaves the seam and the query executor untouched.
 */
class StoreObserverTest {

    @TempDir
    Path root;

    /** Keeps every report, from any thread. */
    static final class Recorder implements StoreObserver {
        final List<String> operations = Collections.synchronizedList(new ArrayList<>());
        final List<String> fsyncs = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void operation(StoreKind kind, String store, StoreOperation operation, boolean success, long nanos) {
            assertThat(nanos).isNotNegative();
            operations.add(kind.label() + " " + store + " " + operation.tag() + " " + (success ? "ok" : "failed"));
        }

        @Override
        public void fsync(String store, boolean directory, long nanos) {
            assertThat(nanos).isNotNegative();
            fsyncs.add(store + " " + (directory ? "dir" : "file"));
        }
    }

    @Test
    void docStoreOperationsReportTheirKindStoreOperationAndOutcome() {
        Recorder recorder = new Recorder();
        try (DocStore store = DocStore.open(root, "notes", DocStoreOptions.builder().observer(recorder).build())) {
            StorageRecord a = store.put(Map.of("text", "a"));
            store.putMany(List.of(Map.of("text", "b"), Map.of("text", "c")));
            assertThat(store.get(a.id())).isPresent();
            assertThat(store.query().where("text").eq("b").get()).hasSize(1);
            assertThat(store.query().where("text").eq("b").count()).isEqualTo(1);
            assertThat(store.delete(a.id())).isTrue();
            assertThatThrownBy(() -> store.get("not-a-uuid")).isInstanceOf(StorageException.class);
        }
        assertThat(recorder.operations).containsExactly("collection notes put ok", "collection notes put ok",
                "collection notes get ok", "collection notes query ok", "collection notes query ok",
                "collection notes delete ok", "collection notes get failed");
        assertThat(recorder.fsyncs).contains("notes file", "notes dir");
    }

    @Test
    void queueClaimsReportEvenWhenNothingIsPending() {
        Recorder recorder = new Recorder();
        try (Queue jobs = Queue.open(root, "jobs", QueueOptions.builder().observer(recorder).build())) {
            jobs.enqueue(Map.of("n", 1L));
            assertThat(jobs.claim()).isPresent();
            assertThat(jobs.claimMany(5)).isEmpty();
        }
        assertThat(recorder.operations).containsExactly("queue jobs claim ok", "queue jobs claim ok");
    }

    @Test
    void logAppendsReadsDeletesAndQueriesReport() {
        Recorder recorder = new Recorder();
        try (SegmentedLog events = SegmentedLog.open(root, "events",
                SegmentedLogOptions.builder().observer(recorder).build())) {
            StorageRecord a = events.put(Map.of("type", "a"));
            events.appendMany(List.of(Map.of("type", "b"), Map.of("type", "c")));
            assertThat(events.get(a.id())).isPresent();
            assertThat(events.query().where("type").eq("b").get()).hasSize(1);
            assertThat(events.delete(a.id())).isTrue();
        }
        assertThat(recorder.operations).containsExactly("log events append ok", "log events append ok",
                "log events get ok", "log events query ok", "log events delete ok");
        assertThat(recorder.fsyncs).contains("events file");
    }

    @Test
    void everyPutOfManyThreadsIsReportedOnce() throws Exception {
        Recorder recorder = new Recorder();
        int threads = 8;
        int puts = 25;
        try (DocStore store = DocStore.open(root, "shared", DocStoreOptions.builder().observer(recorder).build())) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < puts; i++) {
                        store.put(Map.of("i", (long) i));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(1, TimeUnit.MINUTES);
            }
            pool.shutdown();
            assertThat(store.count()).isEqualTo(threads * puts);
        }
        assertThat(recorder.operations).hasSize(threads * puts).containsOnly("collection shared put ok");
    }

    @Test
    void withoutAnObserverTheSeamAndExecutorAreTheStoresOwn() {
        StoreFiles files = LocalFiles.at(root);
        assertThat(Observed.files(files, StoreObserver.NONE)).isSameAs(files);
        assertThat(Observed.files(files, new Recorder())).isNotSameAs(files);
        assertThat(DocStoreOptions.defaults().observer()).isSameAs(StoreObserver.NONE);
        assertThat(DocStoreOptions.defaults().files(root)).isInstanceOf(LocalFiles.class);
        assertThat(DocStoreOptions.builder().observer(new Recorder()).build().files(root))
                .isInstanceOf(ObservedFiles.class);
    }
}

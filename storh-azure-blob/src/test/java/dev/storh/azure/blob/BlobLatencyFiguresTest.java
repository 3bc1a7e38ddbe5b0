package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.VersionConflictException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.StoreFiles;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.Queue;
import dev.storh.queue.QueueOptions;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Short latency runs of the seam's operations against Azurite, with 1 and 8 threads, printed as
 * p50/p95/p99 in milliseconds (no timing is asserted: the figures depend on the machine). Per
 * operation: put = create a record blob (If-None-Match *), get = read a record (cache off, one
 * GET), get-cached = read through the ETag-validated cache (a conditional GET answered 304),
 * list = one bucket's listing, append = append 100 bytes to an append blob and sync, claim =
 * compare-and-set create of a job's claim blob, raced by all threads (each job claimed once).
 * {@code -Dstorh.blob.figures.ops=<n>} sets the operations per thread (default 10, a quick check in CI;
 * the figures in docs/azure-blob.md were taken with 50).
 */
@Isolated("its figures are taken with no other blob test running")
class BlobLatencyFiguresTest {

    private static final Path ROOT = Path.of("/stores");
    private static final int OPS = Integer.getInteger("storh.blob.figures.ops", 10);

    private static String container;
    private static AzureBlobBackend uncached;
    private static AzureBlobBackend cached;

    @BeforeAll
    static void connect() {
        container = Azurite.freshContainer();
        uncached = AzureBlobBackend.builder().connectionString(Azurite.connectionString()).container(container)
                .cacheBytes(0).build();
        cached = Azurite.backend(container);
    }

    @AfterAll
    static void close() {
        if (uncached != null) {
            uncached.container().delete();
            uncached.close();
            cached.close();
        }
    }

    interface Op {
        void run(int thread, int i) throws Exception;
    }

    static String figures(String name, int threads, Op op) throws Exception {
        long[][] nanos = new long[threads][OPS];
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < OPS; i++) {
                        long s = System.nanoTime();
                        op.run(thread, i);
                        nanos[thread][i] = System.nanoTime() - s;
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(300, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] all = Arrays.stream(nanos).flatMapToLong(Arrays::stream).sorted().toArray();
        return String.format("| %-10s | %d | %6.2f | %6.2f | %6.2f | %7.0f |", name, threads, pct(all, 0.50), pct(all, 0.95),
                pct(all, 0.99), all.length / seconds);
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static String id(Random random, long ms) {
        return PartitionSimulationTest.uuidV7(ms, random);
    }

    private static byte[] record(String id) {
        return ("{\"id\":\"" + id + "\",\"name\":\"Place " + id.substring(24) + "\",\"population\":12345,"
                + "\"country\":\"RO\",\"tags\":[\"city\",\"capital\"]}\n").getBytes(StandardCharsets.UTF_8);
    }

    private static String path(String id) {
        return "data/" + id.substring(24, 26) + "/" + id + ".jsonc";
    }

    @Test
    void latencyOfPutGetListAppendAndClaimWithOneAndEightThreads() throws Exception {
        List<String> rows = new ArrayList<>();
        for (int threads : new int[] {1, 8}) {
            BlobFiles files = uncached.files(ROOT, ROOT.resolve("figures-" + threads));
            BlobFiles viaCache = cached.files(ROOT, ROOT.resolve("figures-" + threads));
            String[][] ids = new String[threads][OPS];
            Random random = new Random(42 + threads);
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < OPS; i++) {
                    ids[t][i] = id(random, 1_767_225_600_000L + t * OPS + i);
                    files.createDirectories(path(ids[t][i]).substring(0, 7));
                }
            }
            rows.add(figures("put", threads, (t, i) -> files.writeIfVersion(path(ids[t][i]), record(ids[t][i]), null)));
            rows.add(figures("get", threads, (t, i) -> {
                try (InputStream in = files.open(path(ids[t][i]))) {
                    assertThat(in.readAllBytes()).isEqualTo(record(ids[t][i]));
                }
            }));
            for (String[] row : ids) {
                for (String id : row) {
                    viaCache.open(path(id)).close(); // warm the cache
                }
            }
            rows.add(figures("get-cached", threads, (t, i) -> {
                try (InputStream in = viaCache.open(path(ids[t][i]))) {
                    assertThat(in.readAllBytes()).isEqualTo(record(ids[t][i]));
                }
            }));
            rows.add(figures("list", threads, (t, i) -> assertThat(files.list(path(ids[t][i]).substring(0, 7)))
                    .contains(ids[t][i] + ".jsonc")));
            files.createDirectories("queue");
            StoreFiles.Output[] logs = new StoreFiles.Output[threads];
            for (int t = 0; t < threads; t++) {
                logs[t] = files.append("queue/events-" + t + ".log");
            }
            byte[] event = new byte[100];
            Arrays.fill(event, (byte) 'e');
            event[99] = '\n';
            rows.add(figures("append", threads, (t, i) -> {
                logs[t].write(event);
                logs[t].sync();
            }));
            for (StoreFiles.Output log : logs) {
                assertThat(log.size()).isEqualTo(100L * OPS);
                log.close();
            }
            files.createDirectories("claims");
            ConcurrentHashMap<Integer, Integer> winners = new ConcurrentHashMap<>();
            AtomicInteger duplicates = new AtomicInteger();
            rows.add(figures("claim", threads, (t, i) -> {
                try {
                    files.writeIfVersion("claims/job-" + i, ("thread " + t).getBytes(StandardCharsets.UTF_8), null);
                    if (winners.putIfAbsent(i, t) != null) {
                        duplicates.incrementAndGet();
                    }
                } catch (VersionConflictException e) {
                    // another thread claimed the job first
                }
            }));
            assertThat(winners).hasSize(OPS);
            assertThat(duplicates).hasValue(0);
        }
        System.out.println("Latency against Azurite, " + OPS + " operations per thread, milliseconds:\n"
                + "| operation | threads | p50 | p95 | p99 | ops/s |\n| --- | --- | --- | --- | --- | --- |\n"
                + String.join("\n", rows));
    }

    /**
     * The engines' operations on blobs (each a full engine call: lock lease, refresh, write or read,
     * release): log append ({@code put}), log get, queue claim, DocStore put, get and two queries:
     * an equality on an indexed field (index blobs) and one on an unindexed field (a scan of the
     * collection's record blobs). Run with
     * {@code -Dstorh.blob.figures=true}; one log and one queue shared by all threads.
     */
    @Test
    @EnabledIfSystemProperty(named = "storh.blob.figures", matches = "true")
    void latencyOfTheEnginesOperationsWithOneAndEightThreads() throws Exception {
        List<String> rows = new ArrayList<>();
        Path root = java.nio.file.Files.createTempDirectory("storh-figures");
        for (int threads : new int[] {1, 8}) {
            String name = "figures-" + threads;
            try (SegmentedLog log = SegmentedLog.open(root, name, SegmentedLogOptions.builder().files(cached.under(root)).build());
                    Queue queue = Queue.open(root, name + "-jobs", QueueOptions.builder().files(cached.under(root)).build())) {
                String[][] ids = new String[threads][OPS];
                rows.add(figures("log append", threads, (t, i) -> ids[t][i] = log.put(Map.of("t", (long) t, "i", (long) i)).id()));
                rows.add(figures("log get", threads, (t, i) -> assertThat(log.get(ids[t][i])).isPresent()));
                List<Map<String, Object>> jobs = new ArrayList<>();
                for (int j = 0; j < threads * OPS; j++) {
                    jobs.add(Map.of("j", (long) j));
                }
                queue.enqueueMany(jobs);
                rows.add(figures("queue claim", threads, (t, i) -> assertThat(queue.claim()).isPresent()));
                assertThat(queue.counts().processing()).isEqualTo(threads * OPS);
            }
            try (DocStore docs = DocStore.open(root, name + "-docs", DocStoreOptions.builder().files(cached.under(root)).build())) {
                docs.indexes().defineField("i", false, false).sync();
                String[][] ids = new String[threads][OPS];
                rows.add(figures("doc put", threads, (t, i) -> ids[t][i] = docs.put(Map.of("t", (long) t, "i", (long) i)).id()));
                rows.add(figures("doc get", threads, (t, i) -> assertThat(docs.get(ids[t][i])).isPresent()));
                rows.add(figures("doc query (index)", threads, (t, i) -> assertThat(docs.query().where("i").eq((long) i)
                        .count()).isEqualTo(threads)));
                rows.add(figures("doc query (scan)", threads, (t, i) -> assertThat(docs.query().where("t").eq((long) t)
                        .count()).isEqualTo(OPS)));
            }
        }
        System.out.println("Engine latency against Azurite, " + OPS + " operations per thread, milliseconds:\n"
                + "| operation | threads | p50 | p95 | p99 | ops/s |\n| --- | --- | --- | --- | --- | --- |\n"
                + String.join("\n", rows));
    }
}

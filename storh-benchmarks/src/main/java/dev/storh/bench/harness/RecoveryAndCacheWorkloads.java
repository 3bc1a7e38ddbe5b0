package dev.storh.bench.harness;

import dev.storh.cache.Cache;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.id.UuidV7;
import dev.storh.log.SegmentedLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Sections {@code recovery} and {@code cache}.
 *
 * <p>{@code recovery.recover}: N puts into a log with 16 KiB segments, the log closed, a torn line
 * {@code broken\n} appended to the active segment (all untimed), then one timed
 * {@link SegmentedLog#open}: it scans every segment and cuts the torn tail.
 *
 * <p>{@code cache.cold} / {@code cache.warm}: N records with deterministic ids (timestamps
 * 1,700,100,000,000 + i) written by one store object, which is then closed; a second store with a
 * memory cache of N + 10 entries and the run's {@code --cache-validation} gets all N (cold: each
 * read and parsed, then cached), then all N again (warm: cache hits, validated per mode).
 */
final class RecoveryAndCacheWorkloads {

    /** First id timestamp of the cache section's records. */
    static final long CACHE_ID_START = 1_700_100_000_000L;

    private RecoveryAndCacheWorkloads() {
    }

    static void recovery(SectionRun b) throws Exception {
        int n = b.n();
        Path segments;
        try (SegmentedLog log = SegmentedLog.open(b.dir(), "recovery", LogWorkload.options())) {
            for (int i = 0; i < n; i++) {
                log.put(b.rows().row(i));
            }
            segments = log.collectionDir().resolve("segments");
        }
        Path active;
        try (Stream<Path> files = Files.list(segments)) {
            active = files.filter(p -> p.getFileName().toString().matches("seg-\\d+\\.ndjson"))
                    .max(Comparator.comparing(p -> p.getFileName().toString()))
                    .orElseThrow(() -> new IllegalStateException("No segment in " + segments));
        }
        Files.write(active, "broken\n".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        SegmentedLog reopened =
                b.time("recover", n, () -> SegmentedLog.open(b.dir(), "recovery", LogWorkload.options()));
        reopened.close();
    }

    static void cache(SectionRun b) throws Exception {
        int n = b.n();
        AtomicLong next = new AtomicLong();
        DocStoreOptions writerOptions = DocStoreOptions.builder()
                .idGenerator(() -> UuidV7.generate(CACHE_ID_START + next.getAndIncrement())).build();
        List<String> ids;
        try (DocStore writer = DocStore.open(b.dir(), "cache", writerOptions)) {
            writer.putStream(b.rows().rows(n));
            try (Stream<String> all = writer.ids()) {
                ids = all.toList();
            }
        }
        DocStoreOptions readerOptions = DocStoreOptions.builder().cache(Cache.memory(n + 10L))
                .cacheValidation(b.options().cacheValidation()).build();
        try (DocStore reader = DocStore.open(b.dir(), "cache", readerOptions)) {
            b.time("cold", n, () -> getAll(reader, ids));
            b.time("warm", n, () -> getAll(reader, ids));
        }
    }

    private static int getAll(DocStore store, List<String> ids) {
        int found = 0;
        for (String id : ids) {
            found += store.get(id).isPresent() ? 1 : 0;
        }
        if (found != ids.size()) {
            throw new IllegalStateException("cache section found " + found + " of " + ids.size() + " records");
        }
        return found;
    }
}

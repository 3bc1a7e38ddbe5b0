package dev.storh.bench.jmh;

import dev.storh.StorageRecord;
import dev.storh.cache.Cache;
import dev.storh.cache.CacheValidation;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code DocStore.get(id)} of random ids among {@code records}, without a cache, and through a
 * memory cache that holds every record (warm) or only one (cold: every read misses), per
 * validation mode.
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main DocStoreGetBenchmark
 * </pre>
 */
public class DocStoreGetBenchmark extends ShortBenchmark {

    @Param("10000")
    public int records;

    /** none, stat-warm, stat-cold, hash-warm, trust-warm. */
    @Param({"none", "stat-warm", "stat-cold", "hash-warm", "trust-warm"})
    public String cache;

    private DocStore store;
    private String[] ids;

    @Setup(Level.Trial)
    public void load() throws IOException {
        createRoot("storh-bench-get");
        Cache c = switch (cache) {
            case "none" -> Cache.none();
            case "stat-cold" -> Cache.memory(1);
            default -> Cache.memory(records * 2L);
        };
        CacheValidation mode = cache.startsWith("hash") ? CacheValidation.HASH
                : cache.startsWith("trust") ? CacheValidation.TRUST : CacheValidation.STAT;
        store = onRoot(DocStore.open(root, "pages", DocStoreOptions.builder().cache(c).cacheValidation(mode).build()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            rows.add(Map.of("slug", "page-" + i, "title", "Title " + i, "weight", i * 0.5, "body", "x".repeat(200)));
        }
        ids = store.putMany(rows).stream().map(StorageRecord::id).toArray(String[]::new);
        if (cache.endsWith("warm")) {
            for (String id : ids) {
                store.get(id);
            }
        }
    }

    @Benchmark
    public Optional<StorageRecord> get() {
        return store.get(ids[ThreadLocalRandom.current().nextInt(ids.length)]);
    }
}

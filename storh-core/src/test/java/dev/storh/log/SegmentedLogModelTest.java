package dev.storh.log;

import static dev.storh.log.LogTestSupport.BASE_MS;
import static dev.storh.log.LogTestSupport.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.query.RecordQuery;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statement 16: random put/delete/compact/reopen runs against a reference map (fixed, printed seed). */
class SegmentedLogModelTest {

    @TempDir
    Path root;

    @Test
    void thirtySteps() {
        run(0x5EED_0030L, 30, false);
    }

    @Test
    void oneHundredThirtyStepsWithCompactionAndReopen() {
        run(0x5EED_0130L, 130, true);
    }

    private void run(long seed, int steps, boolean maintenance) {
        System.out.println("SegmentedLogModelTest seed=" + seed + " steps=" + steps);
        Random random = new Random(seed);
        SegmentedLogOptions options = LogTestSupport.opts(512, 2);
        Map<String, Map<String, Object>> model = new TreeMap<>();
        SegmentedLog log = SegmentedLog.open(root, "model" + steps, options);
        try {
            for (int step = 0; step < steps; step++) {
                int roll = random.nextInt(100);
                String id = id(random.nextInt(40));
                if (roll < 60) {
                    Map<String, Object> data = Map.of("kind", random.nextBoolean() ? "a" : "b", "step", (long) step);
                    log.put(data, id);
                    model.put(id, data);
                } else if (roll < 85) {
                    assertThat(log.delete(id)).isEqualTo(model.remove(id) != null);
                } else if (maintenance && roll < 93) {
                    log.compact();
                } else if (maintenance) {
                    log.close();
                    log = SegmentedLog.open(root, "model" + steps, options);
                }
            }
            Map<String, Map<String, Object>> streamed;
            try (Stream<StorageRecord> s = log.stream()) {
                streamed = s.collect(Collectors.toMap(StorageRecord::id, StorageRecord::data));
            }
            assertThat(streamed).isEqualTo(model);
            assertThat(log.stats().records()).isEqualTo(model.size());
            assertThat(log.verify().ok()).isTrue();
            long kindA = model.values().stream().filter(d -> "a".equals(d.get("kind"))).count();
            assertThat(log.count(RecordQuery.all().whereEqual("kind", "a"))).isEqualTo(kindA);
            long window = model.keySet().stream().filter(k -> k.compareTo(id(10)) >= 0 && k.compareTo(id(20)) <= 0).count();
            assertThat(log.count(RecordQuery.all().timeRangeMs(BASE_MS + 10, BASE_MS + 20))).isEqualTo(window);
            for (int n = 0; n < 40; n++) {
                assertThat(log.get(id(n)).map(StorageRecord::data).orElse(null)).isEqualTo(model.get(id(n)));
            }
        } finally {
            log.close();
        }
    }
}

package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The payload an enqueue keeps in memory without decoding its bytes is exactly what a replay reads
 * back from them (values, kinds and key order), for random payloads of every value kind (fixed seeds,
 * {@code -Dstorh.seed=} for one more; the seed is in every message); a payload only decoding can tell
 * is decoded.
 */
class QueuePayloadModelTest {

    private static final long[] SEEDS = {5L, 0xBEEFL, 20_261_201L};

    private static long[] seeds() {
        String one = System.getProperty("storh.seed");
        return one == null ? SEEDS : new long[] {Long.decode(one)};
    }

    private static Object value(Random random, int depth, boolean plainOnly) {
        int kinds = plainOnly ? 10 : 16;
        switch (random.nextInt(depth > 2 ? 7 : kinds)) {
            case 0:
                return "s" + random.nextInt(5) + (random.nextBoolean() ? "/\"\u00e9\ud83d\ude00\n" : "");
            case 1:
                return random.nextBoolean();
            case 2:
                return null;
            case 3:
                return random.nextBoolean() ? Long.MIN_VALUE : (long) random.nextInt();
            case 4:
                return random.nextInt(100);
            case 5:
                return (short) random.nextInt(100);
            case 6:
                return (byte) random.nextInt(100);
            case 7:
                return Arrays.asList(value(random, depth + 1, plainOnly), value(random, depth + 1, plainOnly));
            case 8:
                return random.nextBoolean() ? new ArrayList<>() : new LinkedHashMap<>();
            case 9: {
                Map<String, Object> m = random.nextBoolean() ? new LinkedHashMap<>() : new HashMap<>();
                for (int i = random.nextInt(4); i >= 0; i--) {
                    m.put(random.nextBoolean() ? "k" + i : String.valueOf(i), value(random, depth + 1, plainOnly));
                }
                return m;
            }
            case 10:
                return random.nextBoolean() ? 1.5 : -0.0;
            case 11:
                return new BigDecimal("19.990");
            case 12:
                return new BigInteger("123456789012345678901234567890");
            case 13:
                return new AtomicLong(7);
            case 14:
                return 'c';
            default:
                return random.nextBoolean() ? Set.of("a") : new Object[] {1, "x"};
        }
    }

    @Test
    void theKeptPayloadIsWhatAReplayReads() {
        for (long seed : seeds()) {
            Random random = new Random(seed);
            int copied = 0;
            for (int i = 0; i < 2000; i++) {
                boolean plainOnly = random.nextBoolean();
                Map<String, Object> payload = random.nextInt(4) == 0 ? new TreeMap<>() : new LinkedHashMap<>();
                for (int k = random.nextInt(6); k > 0; k--) {
                    payload.put("f" + random.nextInt(8), value(random, 0, plainOnly));
                }
                Map<String, Object> replayed = QueuePayloadModel.reread(QueuePayloadJson.encodePayload(payload));
                Map<String, Object> kept = QueuePayloadModel.replayCopy(payload);
                if (plainOnly) {
                    assertThat(kept).as("seed %d payload %d: %s", seed, i, payload).isNotNull();
                }
                if (kept != null) {
                    copied++;
                    assertThat(kept).as("seed %d payload %d: %s", seed, i, payload).isEqualTo(replayed);
                    assertThat(kept).as("seed %d payload %d: %s", seed, i, payload)
                            .isInstanceOf(payload.isEmpty() ? LinkedHashMap.class : PayloadMap.class);
                    // the top level is a PayloadMap: its entries, in order, are what the replayed map holds
                    assertThat(kinds(new LinkedHashMap<>(kept))).as("seed %d payload %d: %s", seed, i, payload)
                            .isEqualTo(kinds(replayed));
                    assertThat(replayed).as("seed %d payload %d: %s", seed, i, payload).isEqualTo(kept);
                    assertThat(kept.hashCode()).as("seed %d payload %d: %s", seed, i, payload).isEqualTo(replayed.hashCode());
                    assertThat(QueuePayloadModel.isFlat(kept)).as("seed %d payload %d: %s", seed, i, payload)
                            .isEqualTo(replayed.values().stream().noneMatch(v -> v instanceof Map || v instanceof List));
                }
            }
            assertThat(copied).as("seed %d", seed).isGreaterThan(900);
        }
    }

    @Test
    void aKeptPayloadIsAnImmutableMapInTheGivenKeyOrderUpToSixteenKeys() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("z", 1);
        payload.put("a", "x");
        payload.put("m", null);
        Map<String, Object> kept = QueuePayloadModel.replayCopy(payload);
        assertThat(kept).isInstanceOf(PayloadMap.class);
        assertThat(kept.keySet()).containsExactly("z", "a", "m");
        assertThat(kept.get("z")).isEqualTo(1L);
        assertThat(kept.get("m")).isNull();
        assertThat(kept.containsKey("m")).isTrue();
        assertThat(kept.containsKey("q")).isFalse();
        assertThat(kept.getOrDefault("q", "d")).isEqualTo("d");
        assertThat(kept.getOrDefault("m", "d")).isNull();
        assertThat(kept).hasToString("{z=1, a=x, m=null}");
        assertThat(QueuePayloadModel.isFlat(kept)).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> kept.put("b", 2L))
                .isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> kept.remove("z"))
                .isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
            java.util.Iterator<Map.Entry<String, Object>> it = kept.entrySet().iterator();
            it.next().setValue(3L);
        }).isInstanceOf(UnsupportedOperationException.class);
        assertThat(kept).hasSize(3);

        Map<String, Object> nested = QueuePayloadModel.replayCopy(Map.of("list", List.of(1)));
        assertThat(nested).isInstanceOf(PayloadMap.class);
        assertThat(QueuePayloadModel.isFlat(nested)).isFalse();

        Map<String, Object> big = new LinkedHashMap<>();
        for (int i = 0; i <= PayloadMap.MAX_KEYS; i++) {
            big.put("k" + i, (long) i);
        }
        assertThat(QueuePayloadModel.replayCopy(big)).isInstanceOf(LinkedHashMap.class).isEqualTo(big);
        big.remove("k0");
        assertThat(QueuePayloadModel.replayCopy(big)).isInstanceOf(PayloadMap.class).isEqualTo(big);
    }

    @Test
    void aCopyIsTheCallersNoLonger() {
        List<Object> list = new ArrayList<>(List.of(1L));
        Map<String, Object> payload = new LinkedHashMap<>(Map.of("list", list));
        Map<String, Object> kept = QueuePayloadModel.replayCopy(payload);
        list.add(2L);
        payload.put("later", true);
        assertThat(kept).isEqualTo(Map.of("list", List.of(1L)));
    }

    /**
     * A claimed job's nested values are the caller's own copy, also when the same job was claimed
     * before with a payload without maps or lists (whose check is kept per payload) and was then
     * enqueued again with a nested one: changing what one claim handed out never reaches the next.
     */
    @Test
    void aReEnqueuedJobWithANestedPayloadIsHandedOutAsACopyAfterAFlatOne(@org.junit.jupiter.api.io.TempDir java.nio.file.Path root) {
        String id = QueueTestSupport.id(7);
        try (Queue q = Queue.open(root, "jobs")) {
            q.enqueue(Map.of("n", 1L), id);
            assertThat(q.claim().orElseThrow().data()).isEqualTo(Map.of("n", 1L));
            q.enqueue(Map.of("tags", List.of("a"), "meta", Map.of("k", 1L)), id); // back to pending, nested now
            dev.storh.StorageRecord first = q.claim().orElseThrow();
            @SuppressWarnings("unchecked")
            List<Object> tags = (List<Object>) first.data().get("tags");
            @SuppressWarnings("unchecked")
            Map<String, Object> meta = (Map<String, Object>) first.data().get("meta");
            tags.add("changed by the caller");
            meta.put("k", 2L);
            assertThat(q.release(List.of(id))).isEqualTo(1);
            assertThat(q.claim().orElseThrow().data()).isEqualTo(Map.of("tags", List.of("a"), "meta", Map.of("k", 1L)));
        }
    }

    /** The value's shape with every class and key order spelled out, so a Long and an Integer differ. */
    private static String kinds(Object v) {
        if (v instanceof Map<?, ?> m) {
            StringBuilder out = new StringBuilder(v.getClass().getSimpleName()).append('{');
            m.forEach((k, x) -> out.append(k).append('=').append(kinds(x)).append(','));
            return out.append('}').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder out = new StringBuilder(v.getClass().getSimpleName()).append('[');
            l.forEach(x -> out.append(kinds(x)).append(','));
            return out.append(']').toString();
        }
        return v == null ? "null" : v.getClass().getSimpleName() + ":" + v;
    }
}

package dev.storh.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordQuery#matchesData} against its definition (every equality key present and its value
 * {@link Values#identical} to the one asked), on random records and asked values of every kind the
 * JSON model holds, Java's other number types and look-alikes (1 and "1", 1 and 1.0, null and
 * missing). The seed is printed; {@code -Dstorh.seed=N} repeats one run.
 */
class RecordQueryMatchesDataTest {

    private static Object value(Random r) {
        switch (r.nextInt(13)) {
            case 0: return null;
            case 1: return "page";
            case 2: return "1";
            case 3: return "";
            case 4: return (long) r.nextInt(3);
            case 5: return r.nextInt(3);
            case 6: return (double) r.nextInt(3);
            case 7: return BigInteger.valueOf(r.nextInt(3));
            case 8: return r.nextBoolean();
            case 9: return List.of("page");
            case 10: return Map.of("a", 1L);
            case 11: return new String(new char[] {'p', 'a', 'g', 'e'}); // equal, not the same instance
            default: return "post";
        }
    }

    private static boolean reference(List<Map.Entry<String, Object>> equalities, Map<String, Object> data) {
        for (Map.Entry<String, Object> e : equalities) {
            if (!data.containsKey(e.getKey()) || !Values.identical(data.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        return true;
    }

    @Test
    void matchesAsEveryKeyPresentAndIdentical() {
        long seed = Long.getLong("storh.seed", System.nanoTime());
        System.out.println("RecordQueryMatchesDataTest seed " + seed);
        Random r = new Random(seed);
        String[] keys = {"kind", "status", "n"};
        int matched = 0;
        for (int round = 0; round < 20_000; round++) {
            RecordQuery q = RecordQuery.all();
            int conditions = 1 + r.nextInt(2);
            for (int c = 0; c < conditions; c++) {
                q = q.whereEqual(keys[r.nextInt(keys.length)], value(r));
            }
            Map<String, Object> data = new HashMap<>();
            for (String k : keys) {
                if (r.nextInt(4) > 0) {
                    data.put(k, value(r));
                }
            }
            boolean expected = reference(new ArrayList<>(q.equalities()), data);
            assertThat(q.matchesData(data)).as("seed %d, query %s, data %s", seed, q, data).isEqualTo(expected);
            matched += expected ? 1 : 0;
        }
        assertThat(matched).as("seed %d: some records match", seed).isGreaterThan(100);
    }
}

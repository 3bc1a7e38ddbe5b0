package dev.storh.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The id filters of a {@link RecordQuery} compare ids as their lowercase forms, whatever their case. */
class RecordQueryIdFilterTest {

    private static List<Long> seeds() {
        String override = System.getProperty("storh.seed");
        return override != null ? List.of(Long.parseLong(override)) : List.of(1L, 7L, 20_261_201L);
    }

    /** The id with some letters in upper case, and now and then a non-ASCII letter. */
    private static String variant(String id, Random random) {
        StringBuilder b = new StringBuilder(id.length());
        for (char c : id.toCharArray()) {
            int roll = random.nextInt(20);
            b.append(roll == 0 ? 'İ' : roll < 8 ? Character.toUpperCase(c) : c);
        }
        return random.nextInt(4) == 0 ? b.substring(0, random.nextInt(b.length() + 1)) : b.toString();
    }

    @Test
    void idFiltersAgreeWithComparingTheLowercaseId() {
        for (long seed : seeds()) {
            Random random = new Random(seed);
            long start = 1_700_000_000_000L;
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                ids.add(UuidV7.generate(start + random.nextInt(1000)));
            }
            String after = ids.get(random.nextInt(ids.size()));
            long from = start + 100;
            long until = start + 800;
            RecordQuery afterQuery = RecordQuery.all().after(after);
            RecordQuery range = RecordQuery.all().timeRangeMs(from, until);
            String low = UuidV7.minForTimestampMs(from);
            String high = UuidV7.maxForTimestampMs(until);
            for (String id : ids) {
                String candidate = variant(id, random);
                String lower = candidate.toLowerCase(Locale.ROOT);
                assertThat(afterQuery.matchesId(candidate)).as("seed %d, id %s after %s", seed, candidate, after)
                        .isEqualTo(lower.compareTo(after.toLowerCase(Locale.ROOT)) > 0);
                assertThat(range.matchesId(candidate)).as("seed %d, id %s", seed, candidate)
                        .isEqualTo(lower.compareTo(low) >= 0 && lower.compareTo(high) <= 0);
            }
            assertThat(range.matchesId(UuidV7.minForTimestampMs(from).toUpperCase(Locale.ROOT))).isTrue();
            assertThat(range.matchesId(UuidV7.maxForTimestampMs(until + 1))).isFalse();
        }
    }
}

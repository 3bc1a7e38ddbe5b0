package dev.storh.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.id.UuidV7;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A simulation of the blob service's range partitioning, which cannot be observed on Azurite:
 * 1,000,000 records are written in time order (UUIDv7 ids, 1,000 a second); the service splits the
 * key space into 64 partitions by lexicographic name ranges, balanced on the names it has seen (the
 * 64-quantiles of the first 10% written); the remaining 90% of the writes are then counted per
 * partition. Bucket-first names ({@code 2d/pages/data/<id>.jsonc}, {@link BlobLayout}) spread over
 * all partitions (each takes the new writes of 3 to 5 of the 256 buckets, as names stay time-ordered
 * inside a bucket); time-first names ({@code pages/data/<id>.jsonc}) all land past the last
 * boundary, in one hot partition. Seeds: a fixed list, or {@code -Dstorh.seed=<n>}.
 */
class PartitionSimulationTest {

    private static final int RECORDS = 1_000_000;
    private static final int PARTITIONS = 64;
    private static final long START_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    private static long[] seeds() {
        String override = System.getProperty("storh.seed");
        return override == null ? new long[] {20_260_101L} : new long[] {Long.parseLong(override)};
    }

    /** A UUIDv7 from a timestamp and the random bits of {@code random}. */
    static String uuidV7(long timestampMs, Random random) {
        long high = (timestampMs << 16) | 0x7000L | (random.nextInt() & 0x0fffL);
        long low = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        String hex = String.format("%016x%016x", high, low);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20)
                + "-" + hex.substring(20);
    }

    /** Per-partition write counts of one naming scheme. */
    record Spread(String scheme, long[] counts) {
        long max() {
            return LongStream.of(counts).max().orElse(0);
        }

        long min() {
            return LongStream.of(counts).min().orElse(0);
        }

        double mean() {
            return LongStream.of(counts).sum() / (double) counts.length;
        }

        @Override
        public String toString() {
            return String.format("%-12s min %7d  max %7d  mean %9.1f  max/mean %6.2f  counts %s", scheme, min(), max(), mean(),
                    max() / mean(), Arrays.toString(counts));
        }
    }

    static Spread simulate(String scheme, List<String> idsInTimeOrder, Function<String, String> name) {
        int seen = idsInTimeOrder.size() / 10;
        String[] early = idsInTimeOrder.subList(0, seen).stream().map(name).sorted().toArray(String[]::new);
        String[] boundaries = new String[PARTITIONS - 1]; // partition i holds names in [boundaries[i-1], boundaries[i])
        for (int i = 1; i < PARTITIONS; i++) {
            boundaries[i - 1] = early[(int) ((long) i * early.length / PARTITIONS)];
        }
        long[] counts = new long[PARTITIONS];
        for (String id : idsInTimeOrder.subList(seen, idsInTimeOrder.size())) {
            int at = Arrays.binarySearch(boundaries, name.apply(id));
            counts[at >= 0 ? at + 1 : -at - 1]++;
        }
        return new Spread(scheme, counts);
    }

    @Test
    void bucketFirstNamesSpreadOverAllPartitionsAndTimeFirstNamesHitOne() {
        BlobLayout layout = new BlobLayout("pages");
        for (long seed : seeds()) {
            Random random = new Random(seed);
            List<String> ids = new ArrayList<>(RECORDS);
            for (int i = 0; i < RECORDS; i++) {
                ids.add(uuidV7(START_MS + i, random)); // 1,000 writes a second, in time order
            }
            assertThat(ids.subList(0, 1000)).as("seed %d", seed).allMatch(UuidV7::isValid);

            Spread bucketFirst = simulate("bucket-first", ids,
                    id -> layout.blob("data/" + id.substring(24, 26) + "/" + id + ".jsonc"));
            Spread timeFirst = simulate("time-first", ids, id -> "pages/data/" + id + ".jsonc");
            System.out.println("seed " + seed + ", " + RECORDS + " names in time order, " + PARTITIONS
                    + " range partitions balanced on the first 10%, counts of the other 90%:\n" + bucketFirst + "\n" + timeFirst);

            assertThat(LongStream.of(bucketFirst.counts()).sum()).isEqualTo(RECORDS - RECORDS / 10);
            // names stay time-ordered inside a bucket, so a partition whose boundary falls inside a
            // bucket gets that bucket's later writes: each partition takes 3, 4 or 5 of the 256
            // buckets' new writes (4 on average), so max/mean is at most 5/4 plus noise
            assertThat(bucketFirst.max() / bucketFirst.mean()).as("bucket-first max/mean, seed %d", seed).isLessThan(1.3);
            assertThat(bucketFirst.min() / bucketFirst.mean()).as("bucket-first min/mean, seed %d", seed).isGreaterThan(0.7);
            assertThat(timeFirst.max()).as("time-first: every later write in the last partition, seed %d", seed)
                    .isEqualTo(RECORDS - RECORDS / 10);
            assertThat(Arrays.stream(timeFirst.counts()).filter(c -> c > 0).count()).as("seed %d", seed).isEqualTo(1);
            assertThat(ids.stream().map(id -> layout.blob("data/" + id.substring(24, 26) + "/" + id + ".jsonc").substring(0, 3))
                    .collect(Collectors.toSet())).as("seed %d", seed).hasSize(256);
        }
    }
}

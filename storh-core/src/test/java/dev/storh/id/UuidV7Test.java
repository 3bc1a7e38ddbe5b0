package dev.storh.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class UuidV7Test {

    @Test
    void generatedIdsHaveTheV7LayoutAndSortInCallOrder() {
        String first = UuidV7.generate(1700000000000L);
        String second = UuidV7.generate(1700000000000L);
        String third = UuidV7.generate(1700000000001L);
        for (String id : List.of(first, second, third)) {
            assertThat(UuidV7.isValid(id)).isTrue();
            assertThat(id).hasSize(36).isLowerCase();
            assertThat(id.charAt(14)).isEqualTo('7');
            assertThat("89ab").contains(String.valueOf(id.charAt(19)));
        }
        assertThat(first).startsWith("018bcfe5-6800-");
        assertThat(first).isLessThan(second);
        assertThat(second).isLessThan(third);
        assertThat(UuidV7.timestampMs(first)).isEqualTo(1700000000000L);
        assertThat(UuidV7.minForTimestampMs(1700000000000L)).isEqualTo("018bcfe5-6800-7000-8000-000000000000")
                .isLessThanOrEqualTo(first);
        assertThat(UuidV7.maxForTimestampMs(1700000000000L)).isEqualTo("018bcfe5-6800-7fff-bfff-ffffffffffff")
                .isGreaterThanOrEqualTo(second);
    }

    @Test
    void formatPlacesTheCounterBitsWhereTheOriginalPutsEntropyBytes() {
        // high = e0 nibble 0x2, e1 0x86, e2 low bits 0x2f, e3 0x1e; low = e4..e9
        long high = (0x2L << 22) | (0x86L << 14) | (0x2fL << 8) | 0x1eL;
        assertThat(UuidV7.format(1700000000000L, high, 0xf6f686dbda0bL))
                .isEqualTo("018bcfe5-6800-7286-af1e-f6f686dbda0b");
    }

    @Test
    void validationAcceptsUpperCaseAndRejectsOtherVersionsAndShapes() {
        assertThat(UuidV7.isValid("018BCFE5-6800-7000-8000-000000000000")).isTrue();
        assertThat(UuidV7.timestampMs("018BCFE5-6800-7000-8000-000000000000")).isEqualTo(1700000000000L);
        assertThat(UuidV7.isValid("not-a-uuid")).isFalse();
        assertThat(UuidV7.isValid("018bcfe568007000800000000000000")).isFalse();
        assertThat(UuidV7.isValid("018bcfe5-6800-6000-8000-000000000000")).isFalse();
        assertThat(UuidV7.isValid("018bcfe5-6800-7000-c000-000000000000")).isFalse();
        assertThat(UuidV7.isValid("018bcfe5-6800-7000-8000-000000000000\n")).isFalse();
        assertThat(UuidV7.isValid(null)).isFalse();
        assertThatThrownBy(() -> UuidV7.timestampMs("018bcfe5-6800-6000-8000-000000000000"))
                .isInstanceOf(StorageException.class).hasMessageContaining("Invalid UUIDv7 value.");
        assertThatThrownBy(() -> UuidV7.assertValid("../../etc/passwd"))
                .isInstanceOf(StorageException.class).hasMessageContaining("../../etc/passwd");
    }

    @Test
    void timestampsOutside48BitsAreRefused() {
        assertThatThrownBy(() -> UuidV7.generate(-1)).isInstanceOf(StorageException.class)
                .hasMessage("UUIDv7 timestamp is outside the 48-bit range.");
        assertThatThrownBy(() -> UuidV7.minForTimestampMs(1L << 48)).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> UuidV7.maxForTimestampMs(-1)).isInstanceOf(StorageException.class);
        assertThat(UuidV7.maxForTimestampMs(UuidV7.MAX_TIMESTAMP_MS)).isEqualTo("ffffffff-ffff-7fff-bfff-ffffffffffff");
    }

    @Test
    void manyIdsInOneMillisecondStayStrictlyIncreasing() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(UuidV7.generate());
        }
        for (int i = 1; i < ids.size(); i++) {
            assertThat(ids.get(i)).isGreaterThan(ids.get(i - 1));
        }
    }

    /**
     * Eight threads take ids in blocks of 1 to 300 ({@code generateMany}) and eight one by one; every
     * id is unique, and each thread's ids increase in the order it got them, block by block.
     */
    @Test
    void blocksOfIdsAreUniqueAndIncreasingAcrossThreadsMixedWithSingleIds() throws Exception {
        int threads = 16;
        int perThread = 6_000;
        ConcurrentLinkedQueue<String> all = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            boolean blocks = t % 2 == 0;
            int seed = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                String previous = "";
                int taken = 0;
                while (taken < perThread) {
                    String[] ids = blocks ? UuidV7.generateMany(Math.min(perThread - taken, 1 + random.nextInt(300)))
                            : new String[] {UuidV7.generate()};
                    for (String id : ids) {
                        if (id.compareTo(previous) <= 0 || !UuidV7.isValid(id) || !id.equals(id.toLowerCase(java.util.Locale.ROOT))) {
                            errors.add(previous + " then " + id);
                        }
                        previous = id;
                        all.add(id);
                    }
                    taken += ids.length;
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(errors).isEmpty();
        assertThat(new HashSet<>(all)).hasSize(threads * perThread);
        String before = UuidV7.generate();
        String[] after = UuidV7.generateMany(3);
        assertThat(after).hasSize(3).isSorted();
        assertThat(after[0]).isGreaterThan(before);
        assertThat(UuidV7.generate()).isGreaterThan(after[2]);
        assertThat(UuidV7.generateMany(0)).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> UuidV7.generateMany(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sixteenThreadsGetUniqueIdsEachIncreasingInItsOwnOrder() throws Exception {
        int threads = 16;
        int perThread = 5_000;
        ConcurrentLinkedQueue<String> all = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> orderErrors = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                String previous = "";
                for (int i = 0; i < perThread; i++) {
                    String id = UuidV7.generate();
                    if (id.compareTo(previous) <= 0) {
                        orderErrors.add(previous + " >= " + id);
                    }
                    previous = id;
                    all.add(id);
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        Set<String> unique = new HashSet<>(all);
        assertThat(unique).hasSize(threads * perThread);
        assertThat(orderErrors).isEmpty();
    }

    @Test
    void aBurstOfIdsSpreadsEvenlyOverTheBuckets() {
        int[] buckets = new int[256];
        int n = 256 * 200;
        for (int i = 0; i < n; i++) {
            String id = UuidV7.generate(1700000000000L); // one millisecond: the worst case for spread
            buckets[Integer.parseInt(id.substring(24, 26), 16)]++;
        }
        int min = java.util.Arrays.stream(buckets).min().orElseThrow();
        int max = java.util.Arrays.stream(buckets).max().orElseThrow();
        // 200 per bucket on average; a binomial spread stays well inside [100, 300].
        assertThat(min).isGreaterThan(100);
        assertThat(max).isLessThan(300);
    }

    @Test
    void normalizeLowerCasesValidIds() {
        assertThat(UuidV7.normalize("0190F0E0-1234-7ABC-8DEF-ABCDEF012345"))
                .isEqualTo("0190f0e0-1234-7abc-8def-abcdef012345");
    }

    @Test
    void randomBitsDrawnInBulkAreFreshForEveryIdAcrossManyDraws() {
        // 1,000 ids of one millisecond use the random source far past one bulk draw (64 longs)
        Set<String> tails = new HashSet<>();
        Set<String> buckets = new HashSet<>();
        Set<String> counterStarts = new HashSet<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String id = UuidV7.generate(1_700_000_000_000L);
            ids.add(id);
            tails.add(id.substring(24));
            buckets.add(id.substring(24, 26));
        }
        for (int ms = 0; ms < 300; ms++) {
            counterStarts.add(UuidV7.generate(1_700_000_100_000L + ms).substring(14, 23)); // a fresh counter per ms
        }
        assertThat(ids).isSorted();
        assertThat(tails).as("48 fresh random bits per id: no repeat among 1,000").hasSize(1000);
        assertThat(tails).noneMatch(t -> t.equals("000000000000"));
        assertThat(buckets.size()).as("characters 24-25 spread over the 256 buckets").isGreaterThan(200);
        assertThat(counterStarts.size()).as("each millisecond starts its counter at a new random value").isGreaterThan(290);
    }
}

package dev.storh.id;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The contract between {@link UuidV7#generate()} (clock sequence, strictly monotonic) and
 * {@link UuidV7#generate(long)} (explicit timestamps, a sequence of its own), with real threads.
 */
class UuidV7SequencesTest {

    static List<Long> seeds() {
        String override = System.getProperty("storh.seed");
        return override == null ? List.of(1L, 13L, 4242L) : List.of(Long.parseLong(override));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void clockIdsStayIncreasingWhateverExplicitTimestampsAreInterleaved(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long now = System.currentTimeMillis();
        String previous = UuidV7.generate();
        for (int i = 0; i < 200_000; i++) {
            // past, present and future timestamps, up to the last 48-bit millisecond
            long ts = switch (random.nextInt(4)) {
                case 0 -> random.nextLong(now);
                case 1 -> now + random.nextLong(-2, 3);
                case 2 -> now + random.nextLong(1, 86_400_000L);
                default -> UuidV7.MAX_TIMESTAMP_MS - random.nextLong(3);
            };
            UuidV7.generate(ts);
            String id = UuidV7.generate();
            assertThat(id).as("seed %d, step %d, after generate(%d)", seed, i, ts).isGreaterThan(previous);
            previous = id;
        }
    }

    @Test
    void aFutureExplicitTimestampDoesNotDragClockIdsAhead() {
        UuidV7.generate(UuidV7.MAX_TIMESTAMP_MS);
        UuidV7.generate(System.currentTimeMillis() + 86_400_000L);
        long before = System.currentTimeMillis();
        String id = UuidV7.generate();
        long after = System.currentTimeMillis();
        assertThat(UuidV7.timestampMs(id)).isBetween(before - 1, after + 1);
    }

    @Test
    void explicitIdsOfOneMillisecondIncreaseEvenWithClockIdsInBetween() {
        long ts = System.currentTimeMillis();
        String first = UuidV7.generate(ts);
        UuidV7.generate();
        String second = UuidV7.generate(ts);
        UuidV7.generate();
        String third = UuidV7.generate(ts);
        assertThat(UuidV7.timestampMs(first)).isEqualTo(ts);
        assertThat(first).isLessThan(second);
        assertThat(second).isLessThan(third);
    }

    /**
     * Eight threads call {@code generate()}, each checking its id against the last id any thread
     * published (which happened before), while eight others call {@code generate(long)} with
     * random past and future timestamps.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void clockIdsAreMonotonicAcrossThreadsWhileOtherThreadsUseExplicitTimestamps(long seed) throws Exception {
        int perThread = 20_000;
        AtomicReference<String> lastPublished = new AtomicReference<>(UuidV7.generate());
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int t = 0; t < 16; t++) {
            boolean clock = t % 2 == 0;
            SplittableRandom random = new SplittableRandom(seed * 31 + t);
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    if (clock) {
                        String seen = lastPublished.get();
                        String id = UuidV7.generate();
                        if (id.compareTo(seen) <= 0) {
                            errors.add(id + " <= " + seen);
                        }
                        lastPublished.accumulateAndGet(id, (a, b) -> a.compareTo(b) >= 0 ? a : b);
                    } else {
                        UuidV7.generate(random.nextBoolean() ? random.nextLong(now)
                                : now + random.nextLong(1, UuidV7.MAX_TIMESTAMP_MS - now));
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(errors).as("seed %d: clock ids that were not greater than an earlier one", seed).isEmpty();
        assertThat(UuidV7.timestampMs(UuidV7.generate())).isLessThanOrEqualTo(System.currentTimeMillis() + 1);
    }
}

package dev.storh.spring.transaction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.transaction.StorhTransactionAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of a child JVM ({@link TransactionCrashChild}) committing transactions, at a
 * random moment after it is ready or after its first commit (most of a child's time is spent
 * committing: writing the commit record, the record files, the indexes), round after round on one
 * root; after each kill the root is reopened
 * in a real application context, whose transaction manager rolls forward what the kill left.
 * Then every transaction the child reported committed is there complete, at most the one in flight
 * beyond it, every transaction is all or nothing (its items, the ledger and its marker together),
 * the indexes verify clean and no commit record or temp file is left.
 * <p>
 * Seeds: a fixed list, or {@code -Dstorh.seed=<n>} for one; {@code -Dstorh.txn.crash.rounds=<n>}
 * runs more rounds per seed (default 3). Each round prints its seed and kill delay.
 */
class StorhTransactionCrashTests {

    private static final long[] SEEDS = { 11, 23, 37 };

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhTransactionAutoConfiguration.class));

    @TempDir
    Path tmp;

    @Test
    void everyCommittedTransactionIsCompleteAndNoUncommittedWriteIsVisibleAfterKills() throws Exception {
        String override = System.getProperty("storh.seed");
        long[] seeds = (override != null) ? new long[] { Long.parseLong(override) } : SEEDS;
        int rounds = Integer.getInteger("storh.txn.crash.rounds", 3);
        for (long seed : seeds) {
            Path root = Files.createDirectories(this.tmp.resolve("seed-" + seed));
            Random random = new Random(seed);
            long committedSoFar = 0;
            for (int round = 1; round <= rounds; round++) {
                String after = random.nextBoolean() ? "READY" : "COMMITTED";
                long delayMs = random.nextInt(1500);
                String label = "seed " + seed + " round " + round + " (kill " + delayMs + " ms after the first " + after + ")";
                long acknowledged = runAndKill(root, random.nextLong(), after, delayMs, label);
                committedSoFar = Math.max(committedSoFar, acknowledged);
                long applied = checkAfterReopen(root, committedSoFar, label);
                System.out.println("[txn-crash] " + label + ": acknowledged " + committedSoFar + ", present " + applied);
                committedSoFar = applied;
            }
        }
    }

    /** @return the last transaction the child reported committed */
    private long runAndKill(Path root, long childSeed, String after, long delayMs, String label) throws Exception {
        Path output = root.resolveSibling(root.getFileName() + "-child.out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                TransactionCrashChild.class.getName(), root.toString(), Long.toString(childSeed))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!Files.readString(output).contains(after) && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(child.isAlive()).as("%s: child alive; output: %s", label, Files.readString(output)).isTrue();
            Thread.sleep(delayMs);
        }
        finally {
            child.toHandle().destroyForcibly(); // SIGKILL
            child.waitFor(1, TimeUnit.MINUTES);
        }
        long last = 0;
        for (String line : Files.readAllLines(output)) {
            if (line.startsWith("COMMITTED ")) {
                last = Long.parseLong(line.split(" ")[1]);
            }
            assertThat(line).as("%s: child output", label).doesNotContain("Exception");
        }
        return last;
    }

    /** @return the last transaction present after the roll-forward */
    private long checkAfterReopen(Path root, long acknowledged, String label) {
        long[] present = new long[1];
        this.contextRunner.withPropertyValues("storh.root=" + root).run((context) -> {
            assertThat(context).as(label).hasNotFailed();
            StorhOperations operations = context.getBean(StorhOperations.class);
            List<Item> items;
            try (Stream<Item> all = operations.findAll(Item.class)) {
                items = all.toList();
            }
            Map<Long, List<Item>> byTxn = items.stream()
                .collect(Collectors.groupingBy(Item::txn, TreeMap::new, Collectors.toList()));
            long ledger = operations.findById(TransactionCrashChild.LEDGER, Marker.class).map(Marker::txn).orElse(0L);
            assertThat(ledger).as("%s: every acknowledged transaction is there", label).isGreaterThanOrEqualTo(acknowledged);
            assertThat(ledger).as("%s: at most the one in flight beyond the acknowledged", label)
                .isLessThanOrEqualTo(acknowledged + 1);
            List<Long> expected = new ArrayList<>();
            for (long t = 1; t <= ledger; t++) {
                expected.add(t);
            }
            assertThat(byTxn.keySet()).as("%s: transactions with items are exactly 1..ledger", label)
                .containsExactlyElementsOf(expected);
            byTxn.forEach((txn, group) -> {
                assertThat(group).as("%s: transaction %d complete", label, txn).hasSize(group.get(0).of());
                assertThat(group.stream().map(Item::n).distinct().count()).as("%s: txn %d items", label, txn)
                    .isEqualTo(group.size());
            });
            List<Marker> markers;
            try (Stream<Marker> all = operations.findAll(Marker.class)) {
                markers = all.filter((m) -> !m.id().equals(TransactionCrashChild.LEDGER)).toList();
            }
            if (ledger > 0) {
                assertThat(markers).as("%s: only the last transaction's marker", label)
                    .extracting(Marker::txn).containsExactly(ledger);
            }
            for (String collection : List.of("items", "markers")) {
                if (Files.isDirectory(root.resolve(collection))) {
                    assertThat(operations.docStore(collection).verify().errors()).as("%s: %s verifies", label, collection)
                        .isEmpty();
                }
            }
            assertThat(listing(root.resolve(".storh/transactions"))).as("%s: journal after roll-forward", label)
                .isEmpty();
            present[0] = ledger;
        });
        return present[0];
    }

    private static List<String> listing(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(Path::getFileName).map(Path::toString).map(Function.identity()).toList();
        }
    }

}

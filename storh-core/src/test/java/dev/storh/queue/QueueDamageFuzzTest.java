package dev.storh.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.store.RepairReport;
import dev.storh.store.VerifyReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded damage to a real {@code queue.log}: bytes flipped, garbage lines inserted, stretches overwritten
 * with garbage or NUL bytes, at random offsets, in many copies of one log. Whatever the damage, opening
 * keeps every job whose own lines are intact in the state it had, never lets a completed job be claimed
 * again, reports damage inside the log in {@code verify()} (offset and path), keeps it across writes, and
 * {@code repair()} leaves a clean log without losing an intact job. Seeds: 1..100, or {@code -Dstorh.seed=N}.
 */
class QueueDamageFuzzTest {

    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern OP = Pattern.compile("\"op\":\"([a-z]+)\"");

    @TempDir
    static Path shared;

    /** The undamaged log and what each job's state is in it. */
    private static byte[] original;
    private static final Map<String, String> EXPECTED = new LinkedHashMap<>();
    /** Per line: start offset, end offset (just past its LF), job id, op. */
    private static final List<long[]> LINES = new ArrayList<>();
    private static final List<String> LINE_IDS = new ArrayList<>();
    private static final List<String> LINE_OPS = new ArrayList<>();

    @TempDir
    Path root;

    static LongStream seeds() {
        String override = System.getProperty("storh.seed");
        return override != null ? LongStream.of(Long.parseLong(override)) : LongStream.rangeClosed(1, 100);
    }

    /** Builds one real log through the API and models every job's state on the side. */
    @BeforeAll
    static void buildLog() throws Exception {
        Random r = new Random(42);
        Map<String, String> model = new HashMap<>();
        try (Queue q = Queue.open(shared, "jobs", QueueOptions.builder().autoCompact(false).build())) {
            for (int i = 0; i < 150; i++) {
                String id = i % 3 == 0 ? q.enqueueMany(List.of(Map.of("payload", Map.of("n", (long) i, "pad", "x".repeat(r.nextInt(40))))))
                        .get(0) : q.enqueue(Map.of("n", (long) i, "name", "job-" + i));
                model.put(id, "pending");
            }
            for (var job : q.claimMany(30)) {
                model.put(job.id(), "processing");
            }
            q.requeueTimedOut(Duration.ZERO); // the 30 go to the back of the line
            model.replaceAll((id, status) -> status.equals("processing") ? "pending" : status);
            for (var job : q.claimMany(90)) {
                model.put(job.id(), "processing");
            }
            int n = 0;
            for (String id : new ArrayList<>(model.keySet())) {
                if ("processing".equals(model.get(id)) && n++ < 60) {
                    boolean keep = n % 6 != 0;
                    q.complete(id, keep);
                    if (keep) {
                        model.put(id, "done");
                    } else {
                        model.remove(id);
                    }
                }
            }
            assertThat(q.statusesForTesting()).as("the model matches the queue").hasSize(model.size());
        }
        original = Files.readAllBytes(shared.resolve("jobs/queue.log"));
        long start = 0;
        for (int i = 0; i < original.length; i++) {
            if (original[i] == '\n') {
                String line = new String(original, (int) start, (int) (i + 1 - start), StandardCharsets.UTF_8);
                Matcher id = ID.matcher(line);
                Matcher op = OP.matcher(line);
                assertThat(id.find() && op.find()).isTrue();
                LINES.add(new long[] {start, i + 1});
                LINE_IDS.add(id.group(1));
                LINE_OPS.add(op.group(1));
                start = i + 1;
            }
        }
        try (Queue q = Queue.open(shared, "jobs")) {
            EXPECTED.putAll(q.statusesForTesting());
        }
        assertThat(EXPECTED).hasSameSizeAs(model);
        for (Map.Entry<String, String> e : model.entrySet()) {
            assertThat(EXPECTED.get(e.getKey())).as("job %s", e.getKey()).isEqualTo(e.getValue());
        }
    }

    /** One damage: the bytes it replaces ({@code [from, to)} of the original) and what goes there instead. */
    private record Damage(int from, int to, byte[] bytes, String kind) {
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void damageInsideTheLogLosesNoIntactJobAndNoCompletedJobComesBack(long seed) throws Exception {
        Random r = new Random(seed);
        List<Damage> damages = new ArrayList<>();
        int count = 1 + r.nextInt(3);
        while (damages.size() < count) {
            Damage d = randomDamage(r);
            if (damages.stream().noneMatch(o -> d.from <= o.to + 1 && o.from <= d.to + 1)) {
                damages.add(d);
            }
        }
        damages.sort((a, b) -> Integer.compare(b.from, a.from)); // apply from the end: lower offsets stay put
        byte[] damaged = original;
        for (Damage d : damages) {
            byte[] next = new byte[damaged.length - (d.to - d.from) + d.bytes.length];
            System.arraycopy(damaged, 0, next, 0, d.from);
            System.arraycopy(d.bytes, 0, next, d.from, d.bytes.length);
            System.arraycopy(damaged, d.to, next, d.from + d.bytes.length, damaged.length - d.to);
            damaged = next;
        }
        Set<Integer> badLines = new HashSet<>();
        for (Damage d : damages) {
            for (int i = 0; i < LINES.size(); i++) {
                long s = LINES.get(i)[0];
                long e = LINES.get(i)[1];
                boolean touched = d.to > d.from ? d.from < e && d.to > s : d.from > s && d.from < e;
                if (touched) {
                    badLines.add(i);
                }
            }
        }
        Set<String> damagedJobs = new HashSet<>();
        badLines.forEach(i -> damagedJobs.add(LINE_IDS.get(i)));
        Damage lowest = damages.get(damages.size() - 1);
        int firstBad = badLines.stream().mapToInt(Integer::intValue).min().orElse(Integer.MAX_VALUE);
        long expectedStart = firstBad != Integer.MAX_VALUE && LINES.get(firstBad)[0] <= lowest.from
                ? LINES.get(firstBad)[0] : lowest.from;
        // Damage "inside" the log: some intact line lies after the lowest damaged byte.
        int lastTouched = -1;
        for (int i = 0; i < LINES.size(); i++) {
            if (LINES.get(i)[1] > lowest.from && !badLines.contains(i)) {
                lastTouched = i;
                break;
            }
        }
        boolean inside = lastTouched >= 0;
        String what = "seed " + seed + ", damage " + damages.stream().map(d -> d.kind + "@" + d.from + "-" + d.to).toList()
                + ", bad lines " + badLines + " (-Dstorh.seed=" + seed + " repeats it)";

        Path dir = root.resolve("jobs");
        Files.createDirectories(dir);
        Path log = dir.resolve("queue.log");
        Files.write(log, damaged);
        try (Queue q = Queue.open(root, "jobs")) {
            assertIntactJobs(q.statusesForTesting(), damagedJobs, what + " after open");
            VerifyReport<QueueStats> report = q.verify();
            if (inside) {
                assertThat(report.ok()).as(what).isFalse();
                assertThat(report.errors()).as(what).anySatisfy(e -> assertThat(e)
                        .contains("byte " + expectedStart + " of " + log));
            }
            q.enqueue(Map.of("after", "damage"));
        }
        try (Queue q = Queue.open(root, "jobs")) {
            Map<String, String> statuses = q.statusesForTesting();
            assertIntactJobs(statuses, damagedJobs, what + " after a write and a reopen");
            RepairReport<QueueRepairDetails> repair = q.repair();
            assertThat(repair.removed().isEmpty()).as(what + ": " + repair).isEqualTo(!inside && repair.details().truncatedBytes() == 0);
            assertThat(q.verify().errors()).as(what + " after repair").isEmpty();
            assertIntactJobs(q.statusesForTesting(), damagedJobs, what + " after repair");
            assertThat(q.statusesForTesting()).as(what + ": repair keeps every job it had").isEqualTo(statuses);
            Set<String> claimed = new HashSet<>();
            q.claimMany(10_000).forEach(job -> claimed.add(job.id()));
            for (int i = 0; i < LINES.size(); i++) {
                if (LINE_OPS.get(i).equals("complete") && !badLines.contains(i) && "done".equals(EXPECTED.get(LINE_IDS.get(i)))) {
                    assertThat(claimed).as(what + ": completed job claimable").doesNotContain(LINE_IDS.get(i));
                }
            }
        }
        if (inside) {
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())).as(what + ": damage kept aside")
                        .anyMatch(n -> n.startsWith("queue.log.cut-" + expectedStart + "-"));
            }
        }
        try (Queue q = Queue.open(root, "jobs")) {
            assertThat(q.verify().ok()).as(what + " after repair and reopen").isTrue();
        }
    }

    /** Every job whose own lines are intact has its original state; pending ones keep their order. */
    private static void assertIntactJobs(Map<String, String> actual, Set<String> damagedJobs, String what) {
        List<String> expectedPending = new ArrayList<>();
        for (Map.Entry<String, String> e : EXPECTED.entrySet()) {
            if (damagedJobs.contains(e.getKey())) {
                continue;
            }
            assertThat(actual.get(e.getKey())).as(what + ": job " + e.getKey()).isEqualTo(e.getValue());
            if (e.getValue().equals("pending")) {
                expectedPending.add(e.getKey());
            }
        }
        List<String> actualPending = actual.entrySet().stream()
                .filter(e -> e.getValue().equals("pending") && expectedPending.contains(e.getKey()))
                .map(Map.Entry::getKey).toList();
        assertThat(actualPending).as(what + ": claim order of intact pending jobs").containsExactlyElementsOf(expectedPending);
    }

    private static Damage randomDamage(Random r) {
        int at = r.nextInt(original.length);
        switch (r.nextInt(4)) {
            case 0: {
                byte flipped = (byte) (original[at] ^ (1 + r.nextInt(255)));
                return new Damage(at, at + 1, new byte[] {flipped}, "flip");
            }
            case 1: {
                byte[] garbage = garbage(r, 1 + r.nextInt(40), false);
                garbage[garbage.length - 1] = '\n';
                return new Damage(at, at, garbage, "garbage-line");
            }
            case 2: {
                int len = 1 + r.nextInt(Math.min(200, original.length - at));
                return new Damage(at, at + len, garbage(r, len, true), "overwrite");
            }
            default: {
                int len = 1 + r.nextInt(Math.min(300, original.length - at));
                return new Damage(at, at + len, new byte[len], "zeros");
            }
        }
    }

    private static byte[] garbage(Random r, int len, boolean withLineFeeds) {
        byte[] alphabet = "0123456789abcdef\t{}\":,xyz \n".getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[len];
        for (int i = 0; i < len; i++) {
            byte b = alphabet[r.nextInt(alphabet.length)];
            out[i] = !withLineFeeds && b == '\n' ? (byte) 'q' : b;
        }
        return out;
    }
}

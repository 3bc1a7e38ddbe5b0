package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.json.Jsonc;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded damage (byte flips, truncations, garbage lines) to one file of a store (record files,
 * index files, log segments, manifests, sparse indexes, queue.log), then open, stream, query,
 * verify and repair under a timeout: nothing but StorageException, no hang, repair leaves a clean
 * store, every record or job none of whose lines were touched keeps its value or state, and every
 * damage is reported by open, a read or verify unless {@link #mayGoUnreported the classification
 * rule} excuses it. Short run: 24 cases; long run: {@code storh.reliability.fuzzCases} (default 2,000).
 */
class FuzzTest {

    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @TempDir
    Path temp;

    private final Map<String, Object> docValues = new HashMap<>();
    private final Map<String, Object> logValues = new HashMap<>();
    private final Set<String> doneJobs = new HashSet<>();
    private final Set<String> openJobs = new HashSet<>();

    private Path pristine() {
        Path root = temp.resolve("pristine");
        try (DocStore docs = DocStore.open(root, "docs");
                SegmentedLog log = SegmentedLog.open(root, "events");
                Queue queue = Queue.open(root, "jobs")) {
            docs.indexes().field("u").unique().field("kind").field("r").range().sync();
            for (int i = 0; i < 40; i++) {
                StorageRecord r = docs.put(Map.of("u", "u" + i, "kind", (long) (i % 4), "r", (long) i));
                docValues.put(r.id(), r.data().get("u"));
            }
            for (int i = 0; i < 300; i++) {
                StorageRecord r = log.put(Map.of("n", (long) i, "type", "t" + i % 3));
                logValues.put(r.id(), (long) i);
            }
            log.compact();
            List<String> ids = queue.enqueueMany(java.util.Collections.nCopies(60, Map.of("job", 1L)));
            queue.claimMany(30).stream().limit(20).forEach(j -> {
                queue.complete(j.id());
                doneJobs.add(j.id());
            });
            queue.compact(); // ten jobs stay claimed, thirty pending
            ids.stream().filter(id -> !doneJobs.contains(id)).forEach(openJobs::add);
        }
        return root;
    }

    @Test
    void damagedFilesGiveStorageExceptionsOnlyAndRepairKeepsEverythingIntact() throws Exception {
        Path pristine = pristine();
        List<Path> files;
        try (Stream<Path> all = Files.walk(pristine)) {
            files = all.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/writers/"))
                    .filter(p -> !p.getFileName().toString().endsWith(".lock")).sorted().toList();
        }
        int cases = Seeds.count("storh.reliability.fuzzCases", 24, 2000);
        List<String> problems = new ArrayList<>();
        List<String> unreported = new ArrayList<>();
        List<Long> seeds = Seeds.seeds(19_101L);
        for (long seed : seeds) {
            for (int c = 0; c < cases; c++) {
                long caseSeed = seed * 100_000 + c;
                Random rnd = new Random(caseSeed);
                Path root = temp.resolve("case-" + caseSeed);
                CrashHarnessTest.copyTree(pristine, root);
                Path victim = root.resolve(pristine.relativize(files.get(rnd.nextInt(files.size()))).toString());
                String damage = damage(victim, rnd);
                Set<String> touched = touchedIds(victim, damage);
                String relative = root.relativize(victim).toString();
                String where = "seed " + caseSeed + " " + damage + " " + relative;
                String excuse = mayGoUnreported(pristine, relative, Files.readAllBytes(victim), damage);
                try {
                    boolean reported = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> exercise(root, touched, where, problems));
                    if (!reported && excuse == null) {
                        problems.add(where + ": damage not reported by open, reads or verify");
                    } else if (!reported) {
                        unreported.add(where + " (" + excuse + ")");
                    }
                } catch (Throwable e) {
                    problems.add(where + ": " + e);
                }
                CrashHarnessTest.deleteTree(root);
            }
        }
        unreported.forEach(u -> System.out.println("fuzz: not reported, allowed: " + u));
        System.out.printf("fuzz: seeds=%s cases=%d files=%d not_reported_allowed=%d problems=%d%n",
                seeds, cases * seeds.size(), files.size(), unreported.size(), problems.size());
        assertThat(problems).as("fuzz seeds " + seeds + " (replay one with -Dstorh.seed=N)").isEmpty();
    }

    /**
     * The classification rule: damage that open, reads and verify do not report is a miss (the test
     * fails on it) unless it is one of these, judged from the pristine copy before any store opens:
     * <ol>
     * <li>{@code unchanged}: the file's bytes are what they were (a flip or a cut of an empty file);</li>
     * <li>{@code same value}: a JSON(C) or JSONL file that decodes to the same value as before (white
     *     space, a comment, the final line feed), so every reader reads what it read before;</li>
     * <li>{@code not in use}: a log segment or sparse index the log's manifest does not name (a
     *     compaction superseded it; the original keeps such files and no read opens them);</li>
     * <li>{@code recomputed}: the log's manifest decodes to what it held but for the statistics of its
     *     entries that every open recomputes from the segments and rewrites ({@code max}, {@code min},
     *     {@code ordered}, the active entry's {@code records}, and a sealed entry's {@code records}
     *     lowered): no reader of this library or of the original reads them (found by case
     *     1910500120, a flipped {@code min});</li>
     * <li>{@code crash-equivalent}: a cut of {@code queue.log} or of the log's active segment, the
     *     append-only files, or a bad last line in one: a crash or power cut during an append leaves
     *     exactly this, and the store must then take the good bytes before it as the whole file (a torn
     *     line dropped, a complete bad one cut and kept in {@code .storh/corrupt/}); the format holds no
     *     length or count that could tell a cut from appends that never happened.</li>
     * </ol>
     * A derived file that is silently rebuilt is no excuse: verify must name it until repair rewrites it.
     *
     * @param pristine the undamaged root
     * @param relative the damaged file, relative to the root
     * @param damaged its bytes after the damage
     * @param damage the damage's description
     * @return which excuse applies, or {@code null} when the damage must be reported
     */
    private static String mayGoUnreported(Path pristine, String relative, byte[] damaged, String damage) throws IOException {
        byte[] before = Files.readAllBytes(pristine.resolve(relative));
        if (java.util.Arrays.equals(before, damaged)) {
            return "unchanged";
        }
        if (sameValue(relative, before, damaged)) {
            return "same value";
        }
        if (relative.equals("events/manifest.jsonc") && sameButStatistics(before, damaged)) {
            return "recomputed";
        }
        boolean appendOnly = relative.equals("jobs/queue.log");
        if (relative.startsWith("events/segments/")) {
            Map<String, Object> manifest = Jsonc.decodeObject(Files.readAllBytes(pristine.resolve("events/manifest.jsonc")));
            Set<String> named = new HashSet<>();
            Map<?, ?> active = (Map<?, ?>) manifest.get("active");
            named.add((String) active.get("file"));
            for (Object sealed : (List<?>) manifest.get("sealed")) {
                named.add((String) ((Map<?, ?>) sealed).get("file"));
                named.add((String) ((Map<?, ?>) sealed).get("index"));
            }
            String name = Path.of(relative).getFileName().toString();
            if (!named.contains(name)) {
                return "not in use";
            }
            appendOnly = name.equals(active.get("file"));
        }
        // a garbage line lands at the end only in an empty file: any other has a line after it
        boolean atTheEnd = damage.startsWith("truncate@") || damage.startsWith("garbage-line@") && before.length == 0;
        return appendOnly && atTheEnd ? "crash-equivalent" : null;
    }

    /** @return whether both versions of a JSON(C) or JSONL file decode to the same value (neither failing) */
    private static boolean sameValue(String relative, byte[] before, byte[] after) {
        try {
            if (relative.endsWith(".jsonc") || relative.endsWith(".json")) {
                return Jsonc.decodeObject(before).equals(Jsonc.decodeObject(after));
            }
            if (relative.endsWith(".jsonl")) {
                return lines(before).equals(lines(after));
            }
        } catch (RuntimeException notTheSame) {
            return false;
        }
        return false;
    }

    /** @return whether both log manifests decode to the same value once the recomputed statistics are taken out */
    private static boolean sameButStatistics(byte[] before, byte[] after) {
        try {
            return withoutStatistics(Jsonc.decodeObject(before), Jsonc.decodeObject(before))
                    .equals(withoutStatistics(Jsonc.decodeObject(after), Jsonc.decodeObject(before)));
        } catch (RuntimeException notTheSame) {
            return false;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutStatistics(Map<String, Object> manifest, Map<String, Object> pristine) {
        if (manifest.get("active") instanceof Map<?, ?> active) {
            ((Map<String, Object>) active).keySet().removeAll(List.of("max", "min", "ordered", "records"));
        }
        if (manifest.get("sealed") instanceof List<?> sealed && pristine.get("sealed") instanceof List<?> sound) {
            for (int i = 0; i < sealed.size(); i++) {
                if (sealed.get(i) instanceof Map<?, ?> entry && i < sound.size() && sound.get(i) instanceof Map<?, ?> was) {
                    ((Map<String, Object>) entry).keySet().removeAll(List.of("max", "min", "ordered"));
                    if (entry.get("records") instanceof Long n && was.get("records") instanceof Long m && n <= m) {
                        ((Map<String, Object>) entry).remove("records"); // a lower claim: the open writes the count it finds
                    }
                }
            }
        }
        return manifest;
    }

    private static List<Object> lines(byte[] jsonl) {
        List<Object> values = new ArrayList<>();
        for (String line : new String(jsonl, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                values.add(Jsonc.decodeStrict(line));
            }
        }
        return values;
    }

    /** Damages the file; @return a description "kind@offset[+length]" used to find the touched lines. */
    private static String damage(Path file, Random rnd) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int at = bytes.length == 0 ? 0 : rnd.nextInt(bytes.length);
        switch (rnd.nextInt(3)) {
            case 0 -> {
                int n = 1 + rnd.nextInt(4);
                for (int i = 0; i < n && bytes.length > 0; i++) {
                    bytes[(at + i) % bytes.length] ^= (byte) (1 + rnd.nextInt(255));
                }
                Files.write(file, bytes);
                return "flip@" + at + "+" + n;
            }
            case 1 -> {
                Files.write(file, java.util.Arrays.copyOf(bytes, at));
                return "truncate@" + at + "+" + (bytes.length - at);
            }
            default -> {
                int lineStart = at;
                while (lineStart > 0 && bytes[lineStart - 1] != '\n') {
                    lineStart--;
                }
                byte[] garbage = ("garbage " + Long.toHexString(rnd.nextLong()) + " {\"x\":[\n").getBytes(StandardCharsets.UTF_8);
                byte[] out = new byte[bytes.length + garbage.length];
                System.arraycopy(bytes, 0, out, 0, lineStart);
                System.arraycopy(garbage, 0, out, lineStart, garbage.length);
                System.arraycopy(bytes, lineStart, out, lineStart + garbage.length, bytes.length - lineStart);
                Files.write(file, out);
                return "garbage-line@" + lineStart + "+0";
            }
        }
    }

    /** @return ids named by the damaged lines of a data file (record file, segment, queue.log); none for derived files */
    private Set<String> touchedIds(Path file, String damage) throws IOException {
        Set<String> ids = new HashSet<>();
        String path = file.toString();
        boolean recordFile = path.contains("/docs/data/");
        boolean dataLines = path.contains("/events/segments/") || path.endsWith("queue.log");
        if (recordFile) {
            Matcher m = UUID.matcher(file.getFileName().toString());
            if (m.find()) {
                ids.add(m.group());
            }
            return ids;
        }
        if (!dataLines) {
            return ids;
        }
        // the pristine copy of the file tells which lines the damaged byte range overlapped
        Path original = temp.resolve("pristine").resolve(temp.relativize(file).subpath(1, temp.relativize(file).getNameCount()).toString());
        String text = Files.readString(original, StandardCharsets.ISO_8859_1);
        String[] range = damage.substring(damage.indexOf('@') + 1).split("\\+");
        int from = Integer.parseInt(range[0]);
        int to = Math.max(from + 1, from + Integer.parseInt(range[1]));
        int start = 0;
        for (String line : text.split("\n", -1)) {
            int end = start + line.length() + 1;
            if (end > from - 1 && start < to + 1) {
                Matcher m = UUID.matcher(line);
                while (m.find()) {
                    ids.add(m.group());
                }
            }
            start = end;
        }
        return ids;
    }

    /**
     * Opens, reads, queries, verifies and repairs the engine owning the damaged file.
     *
     * @return whether the damage was reported: open refused, a read threw, or verify not ok
     */
    private boolean exercise(Path root, Set<String> touched, String where, List<String> problems) {
        try {
            if (where.contains(" docs/")) {
                return exerciseDocs(root, touched, where, problems);
            }
            if (where.contains(" events/")) {
                return exerciseLog(root, touched, where, problems);
            }
            return exerciseQueue(root, touched, where, problems);
        } catch (StorageException refusedToOpen) {
            return true;
        }
    }

    private boolean exerciseDocs(Path root, Set<String> touched, String where, List<String> problems) {
        try (DocStore docs = DocStore.open(root, "docs")) {
            boolean reported = threw(() -> docs.stream().count())
                    | threw(() -> docs.query().where("kind").eq(1L).count())
                    | threw(() -> docs.query().where("r").between(5L, 20L).count())
                    | !docs.verify().ok();
            docs.repair();
            docs.verify().errors().forEach(e -> problems.add(where + ": docs not clean after repair: " + e));
            docValues.forEach((id, u) -> {
                if (!touched.contains(id) && !docs.get(id).map(r -> r.data().get("u")).equals(java.util.Optional.of(u))) {
                    problems.add(where + ": intact record " + id + " lost from docs");
                }
            });
            if (docs.query().where("kind").eq(1L).count()
                    != docs.stream().filter(r -> Long.valueOf(1).equals(r.data().get("kind"))).count()) {
                problems.add(where + ": docs index answer differs from a scan after repair");
            }
            return reported;
        }
    }

    private boolean exerciseLog(Path root, Set<String> touched, String where, List<String> problems) {
        try (SegmentedLog log = SegmentedLog.open(root, "events")) {
            boolean reported = threw(() -> log.stream().count())
                    | threw(() -> log.query().where("type").eq("t1").count())
                    | !log.verify().ok();
            log.repair();
            log.verify().errors().forEach(e -> problems.add(where + ": log not clean after repair: " + e));
            logValues.forEach((id, n) -> {
                if (!touched.contains(id) && !log.get(id).map(r -> r.data().get("n")).equals(java.util.Optional.of(n))) {
                    problems.add(where + ": intact record " + id + " lost from the log");
                }
            });
            return reported;
        }
    }

    private boolean exerciseQueue(Path root, Set<String> touched, String where, List<String> problems) {
        try (Queue queue = Queue.open(root, "jobs")) {
            boolean reported = threw(() -> queue.counts().pending()) | !queue.verify().ok();
            queue.repair(Duration.ZERO);
            queue.verify().errors().forEach(e -> problems.add(where + ": queue not clean after repair: " + e));
            queue.requeueTimedOut(Duration.ZERO);
            Set<String> claimable = new HashSet<>();
            queue.claimMany(1000).forEach(j -> claimable.add(j.id()));
            for (String id : doneJobs) {
                if (!touched.contains(id) && claimable.contains(id)) {
                    problems.add(where + ": completed job " + id + " came back");
                }
            }
            for (String id : openJobs) {
                if (!touched.contains(id) && !claimable.contains(id)) {
                    problems.add(where + ": unfinished job " + id + " lost");
                }
            }
            return reported;
        }
    }

    /** Runs a read; a StorageException is a fine answer to damage. @return whether it threw one */
    private static boolean threw(java.util.function.LongSupplier read) {
        try {
            read.getAsLong();
            return false;
        } catch (StorageException e) {
            return true;
        }
    }
}

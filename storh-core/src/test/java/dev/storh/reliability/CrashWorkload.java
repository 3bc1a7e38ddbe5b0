package dev.storh.reliability;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Child JVM of {@link CrashHarnessTest}: a seeded mixed workload on a DocStore, a SegmentedLog and a
 * Queue under one root, several threads each. Before each write it prints {@code B <engine> <thread>
 * <seq> <op> id=value...} (value {@code -} for a delete or a completion), after it returned
 * {@code A <engine> <thread> <seq>} ({@code F ...} when it failed as expected); every line ends with
 * {@code " ."} so that a line torn by the kill is recognised. Runs until killed or until the op budget
 * is spent.
 */
public final class CrashWorkload {

    static final String DOCS = "docs";
    static final String LOG = "events";
    static final String QUEUE = "jobs";

    private final DocStore docs;
    private final SegmentedLog log;
    private final Queue queue;
    private final String round;
    private final Consumer<String> out;
    private final boolean inlineMaintenance;

    private CrashWorkload(DocStore docs, SegmentedLog log, Queue queue, String round, Consumer<String> out,
            boolean inlineMaintenance) {
        this.docs = docs;
        this.log = log;
        this.queue = queue;
        this.round = round;
        this.out = out;
        this.inlineMaintenance = inlineMaintenance;
    }

    /** Defines the indexes the harness checks: unique, equality (compound with kind), range. */
    static void defineIndexes(DocStore docs) {
        docs.indexes().field("u").unique().field("kind").field("tag").field("r").range().sync();
    }

    /**
     * @param args root, seed, round, threads per engine, op budget per thread
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        String round = args[2];
        int threads = Integer.parseInt(args[3]);
        int budget = Integer.parseInt(args[4]);
        run(root, seed, round, new Config(ENGINES, threads, budget, false, null), CrashWorkload::print);
    }

    /** Every engine letter the workload knows: DocStore, SegmentedLog, Queue. */
    static final Set<String> ENGINES = Set.of("D", "L", "Q");

    /**
     * How a run is shaped.
     *
     * @param engines which engines get worker threads ({@link #ENGINES} or a part of it)
     * @param threads worker threads per engine
     * @param budget ops per worker thread
     * @param inlineMaintenance compaction, reindex and requeue as ops in the workers' mix (a
     *     deterministic single-threaded run) instead of a maintenance thread
     * @param files the byte seam for every store, {@code null} for the local files
     */
    record Config(Set<String> engines, int threads, int budget, boolean inlineMaintenance,
            Function<Path, StoreFiles> files) {
    }

    /**
     * Opens the three stores under {@code root}, prints {@code READY}, runs the workers and closes.
     *
     * @param out receives each line (without the closing {@code " ."} marker's newline)
     */
    static void run(Path root, long seed, String round, Config config, Consumer<String> out) throws Exception {
        out.accept("O " + round + " .");
        try (DocStore docs = DocStore.open(root, DOCS, Seams.docOptions(config.files()));
                SegmentedLog log = SegmentedLog.open(root, LOG, Seams.logOptions(config.files()));
                Queue queue = Queue.open(root, QUEUE, Seams.queueOptions(config.files()))) {
            defineIndexes(docs);
            queue.requeueTimedOut(Duration.ZERO); // the previous (killed) child's claims
            out.accept("READY .");
            CrashWorkload w = new CrashWorkload(docs, log, queue, round, out, config.inlineMaintenance());
            List<Thread> all = new ArrayList<>();
            for (int t = 0; t < config.threads(); t++) {
                int thread = t;
                if (config.engines().contains("D")) {
                    all.add(w.start(() -> w.docWork(thread, new Random(seed * 31 + thread), config.budget())));
                }
                if (config.engines().contains("L")) {
                    all.add(w.start(() -> w.logWork(thread, new Random(seed * 37 + thread), config.budget())));
                }
                if (config.engines().contains("Q")) {
                    all.add(w.start(() -> w.queueWork(thread, new Random(seed * 41 + thread), config.budget())));
                }
            }
            if (!config.inlineMaintenance()) {
                all.add(w.start(() -> w.maintenance(new Random(seed * 43), config.budget() / 20)));
            }
            for (Thread t : all) {
                t.join();
            }
        }
        out.accept("END .");
    }

    private Thread start(Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                // the failure channel to the parent: an ERR line that the parent's ledger turns into
                // a test failure naming the round and seed
                emit("ERR " + describe(e));
            }
        });
        t.start();
        return t;
    }

    /**
     * @return the failure and each cause, {@code Class: message}, each with the frames that locate
     *     it, on one line ({@code |} between the parts), so the parent's failure names where it broke
     */
    static String describe(Throwable failure) {
        StringJoiner line = new StringJoiner(" | ");
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            line.add((t == failure ? "" : "caused by ") + t);
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < Math.min(frames.length, 8); i++) {
                line.add("at " + frames[i]);
            }
        }
        return line.toString().replace('\n', ' ');
    }

    private void emit(String line) {
        out.accept(line + " .");
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private String tag(String engine, int thread, int seq) {
        return round + "-" + engine + thread + "-" + seq;
    }

    private Map<String, Object> docData(String tag, Random rnd) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("s", tag);
        d.put("u", "u-" + tag);
        d.put("kind", (long) rnd.nextInt(5));
        d.put("tag", "t" + rnd.nextInt(3));
        d.put("r", (long) rnd.nextInt(1000));
        return d;
    }

    private void docWork(int thread, Random rnd, int budget) {
        List<String> mine = new ArrayList<>();
        Map<String, String> uniqueOf = new LinkedHashMap<>();
        for (int seq = 0; seq < budget; seq++) {
            String tag = tag("D", thread, seq);
            String head = "D " + thread + " " + seq;
            if (maintain(rnd, () -> docs.compact(), () -> docs.reindex())) {
                continue;
            }
            int op = rnd.nextInt(100);
            if (op < 35 || mine.isEmpty()) {
                String id = UuidV7.generate();
                Map<String, Object> data = docData(tag, rnd);
                emit("B " + head + " put " + id + "=" + tag);
                docs.put(data, id);
                mine.add(id);
                uniqueOf.put(id, (String) data.get("u"));
                emit("A " + head);
            } else if (op < 60) {
                String id = mine.get(rnd.nextInt(mine.size()));
                Map<String, Object> data = docData(tag, rnd);
                emit("B " + head + " overwrite " + id + "=" + tag);
                docs.put(data, id);
                uniqueOf.put(id, (String) data.get("u"));
                emit("A " + head);
            } else if (op < 70 && mine.size() > 1) {
                String id = mine.get(rnd.nextInt(mine.size()));
                String other = mine.get(rnd.nextInt(mine.size()));
                if (id.equals(other)) {
                    continue;
                }
                Map<String, Object> data = docData(tag, rnd);
                data.put("u", uniqueOf.get(other));
                emit("B " + head + " conflict " + id + "=" + tag);
                try {
                    docs.put(data, id);
                    emit("A " + head + " UNEXPECTED-SUCCESS");
                } catch (UniqueConstraintException expected) {
                    emit("F " + head);
                }
            } else if (op < 82) {
                String id = mine.remove(rnd.nextInt(mine.size()));
                uniqueOf.remove(id);
                emit("B " + head + " delete " + id + "=-");
                docs.delete(id);
                emit("A " + head);
            } else {
                List<Map<String, Object>> items = new ArrayList<>();
                StringJoiner line = new StringJoiner(" ", "B " + head + " putMany ", "");
                int n = 1 + rnd.nextInt(5);
                for (int i = 0; i < n; i++) {
                    String id = rnd.nextBoolean() || mine.isEmpty() ? UuidV7.generate() : mine.get(rnd.nextInt(mine.size()));
                    if (items.stream().anyMatch(it -> it.get("id").equals(id))) {
                        continue;
                    }
                    Map<String, Object> data = docData(tag + "." + i, rnd);
                    items.add(Map.of("id", id, "data", data));
                    line.add(id + "=" + tag + "." + i);
                    if (!uniqueOf.containsKey(id)) {
                        mine.add(id);
                    }
                    uniqueOf.put(id, (String) data.get("u"));
                }
                emit(line.toString());
                docs.putMany(items);
                emit("A " + head);
            }
        }
    }

    private void logWork(int thread, Random rnd, int budget) {
        List<String> mine = new ArrayList<>();
        for (int seq = 0; seq < budget; seq++) {
            String tag = tag("L", thread, seq);
            String head = "L " + thread + " " + seq;
            if (maintain(rnd, () -> log.compact(), () -> log.compact())) {
                continue;
            }
            int op = rnd.nextInt(100);
            if (op < 40 || mine.isEmpty()) {
                String id = UuidV7.generate();
                emit("B " + head + " put " + id + "=" + tag);
                log.put(Map.of("s", tag, "type", "e" + rnd.nextInt(3)), id);
                mine.add(id);
                emit("A " + head);
            } else if (op < 60) {
                String id = mine.get(rnd.nextInt(mine.size()));
                emit("B " + head + " overwrite " + id + "=" + tag);
                log.put(Map.of("s", tag, "type", "e" + rnd.nextInt(3)), id);
                emit("A " + head);
            } else if (op < 72) {
                String id = mine.remove(rnd.nextInt(mine.size()));
                emit("B " + head + " delete " + id + "=-");
                log.delete(id);
                emit("A " + head);
            } else {
                List<Map<String, Object>> items = new ArrayList<>();
                StringJoiner line = new StringJoiner(" ", "B " + head + " appendMany ", "");
                int n = 1 + rnd.nextInt(5);
                for (int i = 0; i < n; i++) {
                    String id = UuidV7.generate();
                    items.add(Map.of("id", id, "data", Map.of("s", tag + "." + i, "type", "e" + rnd.nextInt(3))));
                    line.add(id + "=" + tag + "." + i);
                    mine.add(id);
                }
                emit(line.toString());
                log.appendMany(items);
                emit("A " + head);
            }
        }
    }

    private void queueWork(int thread, Random rnd, int budget) {
        List<String> claimed = new ArrayList<>();
        for (int seq = 0; seq < budget; seq++) {
            String tag = tag("Q", thread, seq);
            String head = "Q " + thread + " " + seq;
            if (maintain(rnd, () -> queue.compact(), () -> queue.requeueTimedOut(Duration.ofMinutes(10)))) {
                continue;
            }
            int op = rnd.nextInt(100);
            if (op < 40) {
                String id = UuidV7.generate();
                emit("B " + head + " enqueue " + id + "=" + tag);
                queue.enqueue(Map.of("s", tag), id);
                emit("A " + head);
            } else if (op < 65) {
                Optional<StorageRecord> job = queue.claim();
                job.ifPresent(j -> claimed.add(j.id()));
            } else if (op < 90 && !claimed.isEmpty()) {
                String id = claimed.remove(rnd.nextInt(claimed.size()));
                emit("B " + head + " complete " + id + "=-");
                queue.complete(id);
                emit("A " + head);
            } else if (!claimed.isEmpty()) {
                String id = claimed.remove(rnd.nextInt(claimed.size()));
                queue.release(List.of(id));
            }
        }
    }

    /** In a run with inline maintenance: one op in 25 is one of the two jobs. @return whether it ran one */
    private boolean maintain(Random rnd, Runnable one, Runnable other) {
        if (!inlineMaintenance || rnd.nextInt(25) != 0) {
            return false;
        }
        (rnd.nextBoolean() ? one : other).run();
        return true;
    }

    /** The maintenance thread's operations, as its {@code M begin <name>} and {@code M end <name>} lines name them. */
    static final List<String> MAINTENANCE = List.of("log-compact", "queue-compact", "docs-compact", "docs-reindex", "queue-requeue");

    private void maintenance(Random rnd, int budget) {
        for (int i = 0; i < budget; i++) {
            int op = rnd.nextInt(5);
            String name = MAINTENANCE.get(op);
            emit("M begin " + name);
            switch (op) {
                case 0 -> log.compact();
                case 1 -> queue.compact();
                case 2 -> docs.compact();
                case 3 -> docs.reindex();
                default -> queue.requeueTimedOut(Duration.ofMinutes(10));
            }
            emit("M end " + name);
            try {
                Thread.sleep(20 + rnd.nextInt(80));
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}

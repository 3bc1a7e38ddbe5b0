package dev.storh.reliability;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Child JVM of {@link ConcurrencyTest}: {@code threads} threads race, in three rounds, for every
 * unique value of a DocStore (each thread tries them all, in its own order), claim and complete a
 * shared queue until it is empty, and append to a shared log. Prints each success as a line
 * ({@code W <value> <id>}, {@code C <job id>}, {@code P <record id> <by>}) to its output file.
 */
public final class RaceChild {

    private RaceChild() {
    }

    /**
     * @param args root, jvm name, threads, unique values, appends per thread, output file
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        String jvm = args[1];
        int threads = Integer.parseInt(args[2]);
        int values = Integer.parseInt(args[3]);
        int appends = Integer.parseInt(args[4]);
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        try (DocStore docs = DocStore.open(root, "race"); Queue queue = Queue.open(root, "shared");
                SegmentedLog log = SegmentedLog.open(root, "journal")) {
            parallel(threads, errors, t -> {
                List<Integer> order = new ArrayList<>();
                for (int v = 0; v < values; v++) {
                    order.add(v);
                }
                Collections.shuffle(order, new Random(jvm.hashCode() * 31L + t));
                for (int v : order) {
                    try {
                        StorageRecord r = docs.put(Map.of("u", "u-" + v, "by", jvm + "-" + t));
                        out.add("W u-" + v + " " + r.id());
                    } catch (UniqueConstraintException lost) {
                        // another thread or JVM holds the value
                    }
                }
            });
            parallel(threads, errors, t -> {
                for (Optional<StorageRecord> job = queue.claim(); job.isPresent(); job = queue.claim()) {
                    out.add("C " + job.get().id());
                    queue.complete(job.get().id());
                }
            });
            parallel(threads, errors, t -> {
                for (int i = 0; i < appends; i++) {
                    String by = jvm + "-" + t + "-" + i;
                    out.add("P " + log.put(Map.of("by", by)).id() + " " + by);
                }
            });
        }
        out.addAll(errors.stream().map(e -> "ERR " + e).toList());
        Files.write(Path.of(args[5]), out);
    }

    private interface Work {
        void run(int thread) throws Exception;
    }

    private static void parallel(int threads, List<String> errors, Work work) throws InterruptedException {
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread th = new Thread(() -> {
                try {
                    work.run(thread);
                } catch (Throwable e) {
                    errors.add(e.toString().replace('\n', ' '));
                }
            });
            th.start();
            all.add(th);
        }
        for (Thread th : all) {
            th.join();
        }
    }
}

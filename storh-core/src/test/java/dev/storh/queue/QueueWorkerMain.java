package dev.storh.queue;

import dev.storh.StorageRecord;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A worker process for the multi-process tests (not a test itself).
 *
 * <pre>
 * java -cp ... dev.storh.queue.QueueWorkerMain work  ROOT NAME THREADS OUT   claim+complete until empty; claimed ids to OUT
 * java -cp ... dev.storh.queue.QueueWorkerMain crash ROOT NAME             claimMany(25), complete one by one, print "done ID"
 * </pre>
 */
public final class QueueWorkerMain {

    private QueueWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[1]);
        String name = args[2];
        try (Queue queue = Queue.open(root, name)) {
            if (args[0].equals("work")) {
                work(queue, Integer.parseInt(args[3]), Path.of(args[4]));
            } else {
                crash(queue);
            }
        }
    }

    private static void work(Queue queue, int threads, Path out) throws Exception {
        List<String> claimed = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    for (Optional<StorageRecord> job = queue.claim(); job.isPresent(); job = queue.claim()) {
                        claimed.add(job.get().id());
                        queue.complete(job.get().id());
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers.add(thread);
            thread.start();
        }
        for (Thread thread : workers) {
            thread.join();
        }
        Files.write(out, claimed, StandardCharsets.UTF_8);
        if (failure.get() != null) {
            // the parent test shows this log when the exit code is not 0: one line naming the
            // failure, each cause and where each was thrown
            StringJoiner line = new StringJoiner(" | ", "queue worker failed: ", "");
            for (Throwable t = failure.get(); t != null; t = (t.getCause() == t) ? null : t.getCause()) {
                line.add((t == failure.get() ? "" : "caused by ") + t);
                StackTraceElement[] frames = t.getStackTrace();
                for (int i = 0; i < Math.min(frames.length, 5); i++) {
                    line.add("at " + frames[i]);
                }
            }
            System.err.println(line);
            System.exit(2);
        }
    }

    private static void crash(Queue queue) {
        PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        while (true) {
            List<StorageRecord> batch = queue.claimMany(25);
            if (batch.isEmpty()) {
                return;
            }
            stdout.println("claimed " + batch.size());
            for (StorageRecord job : batch) {
                queue.complete(job.id());
                stdout.println("done " + job.id());
            }
        }
    }
}

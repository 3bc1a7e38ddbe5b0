package dev.storh.azure.blob;

import dev.storh.VersionConflictException;
import dev.storh.fs.CollectionLock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A second JVM on the same container, driven by {@link BlobTwoProcessTest}:
 * {@code race <container> <seed> <rounds>} increments a counter by compare-and-set, takes unique
 * values and claims jobs (printing {@code UNIQUE v} / {@code CLAIM j} for each it won);
 * {@code hold <container>} takes the store's lock and waits for a line on stdin, then releases it;
 * {@code claim <container>} claims and completes jobs of the blob queue {@code jobs} until none is
 * pending, printing {@code CLAIM <id>} for each; {@code append <container> <root> <tag> <n>} appends
 * {@code n} records {@code {"by": tag, "i": i}} to the blob log {@code audit} (see {@link BlobLogTest}),
 * printing {@code APPEND <id> <i>} for each; {@code docs <container> <root> <seed> <n>} puts records with
 * the unique e-mails {@code e0..e<n-1>} in a shuffled order into the DocStore {@code users} (see
 * {@link BlobDocStoreTest}), printing {@code UNIQUE <email> <id>} for each it won, then increments
 * the counter record under the write lock {@code n} times.
 */
public final class BlobChildProcess {

    static final int UNIQUE_VALUES = 40;
    static final int JOBS = 40;

    private BlobChildProcess() {
    }

    /**
     * @param args the mode and its arguments (see the class comment)
     * @return the child JVM, on this test class path, its errors on the test's
     * @throws java.io.IOException when it cannot be started
     */
    static Process start(String... args) throws java.io.IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // a short-lived child: C1 only and the serial collector start it faster on a loaded machine
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), BlobChildProcess.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /**
     * @param child a started child
     * @return every line it prints, when it has ended
     */
    static java.util.concurrent.CompletableFuture<List<String>> lines(Process child) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> new BufferedReader(new InputStreamReader(
                child.getInputStream(), StandardCharsets.UTF_8)).lines().collect(java.util.stream.Collectors.toList()));
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of("/stores");
        try (AzureBlobBackend backend = AzureBlobBackend.builder().connectionString(Azurite.connectionString())
                .container(args[1]).build()) {
            BlobFiles files = backend.files(root, root.resolve("shared"));
            if (args[0].equals("hold")) {
                hold(files);
            } else if (args[0].equals("claim")) {
                claim(backend);
            } else if (args[0].equals("docs")) {
                docs(backend, Path.of(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]));
            } else if (args[0].equals("append")) {
                append(backend, Path.of(args[2]), args[3], Integer.parseInt(args[4]));
            } else {
                race(files, Long.parseLong(args[2]), Integer.parseInt(args[3]));
            }
        }
        System.out.flush();
    }

    private static void claim(AzureBlobBackend backend) {
        try (dev.storh.queue.Queue queue = dev.storh.queue.Queue.open(BlobQueueTest.ROOT, "jobs",
                BlobQueueTest.options(backend))) {
            while (true) {
                java.util.List<dev.storh.StorageRecord> jobs = queue.claimMany(3);
                if (jobs.isEmpty()) {
                    break;
                }
                for (dev.storh.StorageRecord job : jobs) {
                    System.out.println("CLAIM " + job.id());
                    queue.complete(job.id());
                }
            }
        }
        System.out.println("DONE");
    }

    private static void docs(AzureBlobBackend backend, Path docRoot, long seed, int n) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(seed));
        try (dev.storh.doc.DocStore users = BlobDocStoreTest.open(backend, docRoot)) {
            System.out.println("READY");
            for (int i : order) {
                try {
                    String id = users.put(java.util.Map.of("email", "e" + i + "@example.org", "by", seed)).id();
                    System.out.println("UNIQUE e" + i + "@example.org " + id);
                } catch (dev.storh.UniqueConstraintException e) {
                    System.out.println("TAKEN e" + i);
                }
            }
            for (int i = 0; i < n; i++) {
                BlobDocStoreTest.increment(users);
            }
        }
        System.out.println("DONE");
    }

    private static void append(AzureBlobBackend backend, Path logRoot, String tag, int n) {
        try (dev.storh.log.SegmentedLog log = BlobLogTest.open(backend, logRoot)) {
            System.out.println("READY");
            for (int i = 0; i < n; i++) {
                String id = log.put(java.util.Map.of("by", tag, "i", (long) i)).id();
                System.out.println("APPEND " + id + " " + i);
            }
        }
        System.out.println("DONE");
    }

    private static void hold(BlobFiles files) throws Exception {
        try (CollectionLock lock = files.lock(".storh/write.lock")) {
            lock.lock(Duration.ofSeconds(60));
            System.out.println("LOCKED");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            lock.unlock();
        }
        System.out.println("RELEASED");
    }

    private static void race(BlobFiles files, long seed, int rounds) throws Exception {
        Random random = new Random(seed);
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < Math.max(UNIQUE_VALUES, JOBS); i++) {
            values.add(i);
        }
        System.out.println("READY");
        System.out.flush();
        for (int r = 0; r < rounds; r++) {
            while (true) {
                String version = files.version("counter").orElseThrow();
                int value;
                try (var in = files.open("counter")) {
                    value = Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
                try {
                    files.writeIfVersion("counter", Integer.toString(value + 1).getBytes(StandardCharsets.UTF_8), version);
                    break;
                } catch (VersionConflictException e) {
                    System.out.println("CONFLICT");
                }
            }
        }
        Collections.shuffle(values, random);
        for (int v : values) {
            if (v < UNIQUE_VALUES && take(files, "unique/email-" + v)) {
                System.out.println("UNIQUE " + v);
            }
            if (v < JOBS && take(files, "claims/job-" + v)) {
                System.out.println("CLAIM " + v);
            }
        }
        System.out.println("DONE");
    }

    private static boolean take(BlobFiles files, String name) throws Exception {
        try {
            files.writeIfVersion(name, ("pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8), null);
            return true;
        } catch (VersionConflictException e) {
            return false;
        }
    }
}

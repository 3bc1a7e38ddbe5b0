package dev.storh.reliability;

import dev.storh.doc.DocStore;
import dev.storh.fs.FailingFiles;
import dev.storh.id.UuidV7;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One engine as {@link FaultMatrixTest} drives it: a store over a {@link FailingFiles} seam with
 * a settled state (overwrites, deletes, claims, completions; damage before a repair), the write
 * paths, and the logical state to compare before and after a failure.
 */
abstract class FaultSubject implements AutoCloseable {

    /** The write paths of the matrix. */
    enum WritePath { SINGLE, BATCH, GROUP_COMMIT, COMPACTION, REINDEX, REPAIR }

    final Path root;
    FailingFiles seam;

    FaultSubject(Path root) {
        this.root = root;
    }

    static FaultSubject of(String engine, Path root) {
        return switch (engine) {
            case "D" -> new Docs(root);
            case "L" -> new Log(root);
            default -> new Jobs(root);
        };
    }

    /** @return the store's folder */
    abstract Path folder();

    /** Opens the store over a fresh seam. */
    abstract void open();

    /** Writes the state every case starts from (and damage when the path is a repair). */
    abstract void settle(WritePath path) throws IOException;

    /** @return whether the engine has this write path */
    abstract boolean has(WritePath path);

    /**
     * Runs one write of the path; for a group commit several threads at once.
     *
     * @return the ids written by callers that were told "done"
     */
    abstract List<String> write(WritePath path, List<String> failedIds) throws Exception;

    /** @return what a reader sees, comparable with equals; a refusal to read (damage) is its message */
    final Object logicalState() {
        try {
            return readState();
        } catch (dev.storh.StorageException e) {
            return "refused: " + e.getMessage();
        }
    }

    abstract Object readState();

    /** @return verify's errors */
    abstract List<String> verifyErrors();

    /** @return whether a written id is visible */
    abstract boolean visible(String id);

    /** Runs the same write from four threads at once; @return the ids of callers told "done" */
    static List<String> group(java.util.function.Consumer<String> one, List<String> failedIds) throws InterruptedException {
        List<String> ok = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String id = UuidV7.generate();
            Thread t = new Thread(() -> {
                try {
                    one.accept(id);
                    ok.add(id);
                } catch (RuntimeException e) {
                    failedIds.add(id);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join(60_000);
        }
        return ok;
    }

    /** Appends a line of garbage to a file, outside the seam: damage for a repair to find. */
    static void damage(Path file) throws IOException {
        Files.write(file, "{\"torn\":tr\n".getBytes(), StandardOpenOption.APPEND);
    }

    static final class Docs extends FaultSubject {
        DocStore store;

        Docs(Path root) {
            super(root);
        }

        @Override
        Path folder() {
            return root.resolve("docs");
        }

        @Override
        void open() {
            store = DocStore.open(root, "docs", Seams.docOptions(dir -> seam = FailingFiles.at(dir)));
            store.indexes().field("kind").field("u").unique().field("r").range().sync();
        }

        @Override
        void settle(WritePath path) throws IOException {
            List<String> ids = new ArrayList<>();
            for (long i = 0; i < 6; i++) {
                ids.add(store.put(Map.of("kind", i % 3, "u", "u" + i, "r", i * 10)).id());
            }
            store.put(Map.of("kind", 2L, "u", "u-over", "r", 99L), ids.get(0));
            store.delete(ids.get(1));
            if (path == WritePath.REPAIR) {
                Files.writeString(store.pathForId(ids.get(2)), "{\"kind\": tr");
            }
        }

        @Override
        boolean has(WritePath path) {
            return true;
        }

        @Override
        List<String> write(WritePath path, List<String> failedIds) throws Exception {
            switch (path) {
                case SINGLE, BATCH -> {
                    List<Map<String, Object>> items = new ArrayList<>();
                    for (int i = 0; i < (path == WritePath.SINGLE ? 1 : 3); i++) {
                        String id = UuidV7.generate();
                        items.add(Map.of("id", id, "data", Map.of("kind", 1L, "u", "n-" + id, "r", 5L)));
                    }
                    items.forEach(i -> failedIds.add((String) i.get("id")));
                    if (path == WritePath.SINGLE) {
                        store.put((Map<String, ?>) items.get(0).get("data"), (String) items.get(0).get("id"));
                    } else {
                        store.putMany(items);
                    }
                    List<String> done = List.copyOf(failedIds);
                    failedIds.clear();
                    return done;
                }
                case GROUP_COMMIT -> {
                    return group(id -> store.put(Map.of("kind", 0L, "u", "g-" + id, "r", 1L), id), failedIds);
                }
                case COMPACTION -> store.compact();
                case REINDEX -> store.reindex();
                default -> store.repair();
            }
            return List.of();
        }

        @Override
        Object readState() {
            Map<String, Object> all = new TreeMap<>();
            store.stream().forEach(r -> all.put(r.id(), r.data()));
            all.put("index kind=1", store.query().where("kind").eq(1L).count());
            return all;
        }

        @Override
        List<String> verifyErrors() {
            return store.verify().errors();
        }

        @Override
        boolean visible(String id) {
            return store.get(id).isPresent();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    static final class Log extends FaultSubject {
        SegmentedLog store;

        Log(Path root) {
            super(root);
        }

        @Override
        Path folder() {
            return root.resolve("events");
        }

        @Override
        void open() {
            store = SegmentedLog.open(root, "events", Seams.logOptions(dir -> seam = FailingFiles.at(dir)));
        }

        @Override
        void settle(WritePath path) throws IOException {
            List<String> ids = new ArrayList<>();
            for (long i = 0; i < 6; i++) {
                ids.add(store.put(Map.of("n", i)).id());
            }
            store.put(Map.of("n", 10L), ids.get(0));
            store.put(Map.of("n", 11L), ids.get(2));
            store.delete(ids.get(1));
            if (path == WritePath.REPAIR) {
                try (Stream<Path> segs = Files.list(folder().resolve("segments"))) {
                    damage(segs.filter(p -> p.toString().endsWith(".ndjson")).sorted().reduce((a, b) -> b).orElseThrow());
                }
            }
        }

        @Override
        boolean has(WritePath path) {
            return path != WritePath.REINDEX;
        }

        @Override
        List<String> write(WritePath path, List<String> failedIds) throws Exception {
            switch (path) {
                case SINGLE -> {
                    String id = UuidV7.generate();
                    failedIds.add(id);
                    store.put(Map.of("n", 20L), id);
                    failedIds.clear();
                    return List.of(id);
                }
                case BATCH -> {
                    List<Map<String, Object>> items = new ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                        String id = UuidV7.generate();
                        failedIds.add(id);
                        items.add(Map.of("id", id, "data", Map.of("n", 30L + i)));
                    }
                    store.appendMany(items);
                    List<String> done = List.copyOf(failedIds);
                    failedIds.clear();
                    return done;
                }
                case GROUP_COMMIT -> {
                    return group(id -> store.put(Map.of("n", 40L), id), failedIds);
                }
                case COMPACTION -> store.compact();
                default -> store.repair();
            }
            return List.of();
        }

        @Override
        Object readState() {
            Map<String, Object> all = new TreeMap<>();
            store.stream().forEach(r -> all.put(r.id(), r.data()));
            return all;
        }

        @Override
        List<String> verifyErrors() {
            return store.verify().errors();
        }

        @Override
        boolean visible(String id) {
            return store.get(id).isPresent();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    static final class Jobs extends FaultSubject {
        Queue store;

        Jobs(Path root) {
            super(root);
        }

        @Override
        Path folder() {
            return root.resolve("jobs");
        }

        @Override
        void open() {
            store = Queue.open(root, "jobs", Seams.queueOptions(dir -> seam = FailingFiles.at(dir)));
        }

        @Override
        void settle(WritePath path) throws IOException {
            for (long i = 0; i < 6; i++) {
                store.enqueue(Map.of("n", i));
            }
            List<String> claimed = new ArrayList<>();
            store.claimMany(3).forEach(r -> claimed.add(r.id()));
            store.complete(claimed.get(0));
            store.complete(claimed.get(1));
            if (path == WritePath.REPAIR) {
                damage(folder().resolve("queue.log"));
            }
        }

        @Override
        boolean has(WritePath path) {
            return path != WritePath.REINDEX;
        }

        @Override
        List<String> write(WritePath path, List<String> failedIds) throws Exception {
            switch (path) {
                case SINGLE -> {
                    String id = UuidV7.generate();
                    failedIds.add(id);
                    store.enqueue(Map.of("n", 20L), id);
                    failedIds.clear();
                    return List.of(id);
                }
                case BATCH -> {
                    return store.enqueueMany(List.of(Map.of("n", 30L), Map.of("n", 31L), Map.of("n", 32L)));
                }
                case GROUP_COMMIT -> {
                    return group(id -> store.enqueue(Map.of("n", 40L), id), failedIds);
                }
                case COMPACTION -> store.compact();
                default -> store.repair(Duration.ofHours(1));
            }
            return List.of();
        }

        @Override
        Object readState() {
            return store.counts();
        }

        @Override
        List<String> verifyErrors() {
            return store.verify().errors();
        }

        @Override
        boolean visible(String id) {
            try {
                return Files.readString(folder().resolve("queue.log")).contains(id);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            store.close();
        }
    }
}

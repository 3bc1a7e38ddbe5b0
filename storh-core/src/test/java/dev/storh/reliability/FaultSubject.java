package dev.storh.reliability;

import dev.storh.doc.DocStore;
import dev.storh.fs.FailingFiles;
import dev.storh.id.UuidV7;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import dev.storh.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    /**
     * The write paths of the matrix: one record, a batch (all or nothing), a group commit of four
     * threads, a stream (putStream, appendStream: the items before a failure may stay), a delete (a
     * queue's completion of its claimed jobs), a queue's claim, compaction, reindex and repair.
     */
    enum WritePath { SINGLE, BATCH, GROUP_COMMIT, STREAM, DELETE, CLAIM, COMPACTION, REINDEX, REPAIR }

    final Path root;
    FailingFiles seam;
    Store<?, ?, ?> store;
    /** The ids of the last {@link WritePath#STREAM} write, in input order. */
    List<String> streamed = List.of();

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
    final void open() {
        store = openStore();
    }

    /** @return the store, opened over a fresh {@link #seam} */
    abstract Store<?, ?, ?> openStore();

    /** Writes the state every case starts from (and damage when the path is a repair). */
    abstract void settle(WritePath path) throws IOException;

    /** @return whether the engine has this write path */
    abstract boolean has(WritePath path);

    /**
     * Runs one write of the path; for a group commit several threads at once.
     *
     * @param failedIds receives the ids of records whose callers were told "failed"
     * @return the ids written by callers that were told "done"
     */
    final List<String> write(WritePath path, List<String> failedIds) throws Exception {
        switch (path) {
            case COMPACTION -> store.compact();
            case REPAIR -> store.repair();
            case REINDEX -> ((DocStore) store).reindex();
            case DELETE -> deleteOne();
            case CLAIM -> ((Queue) store).claimMany(2);
            default -> {
                return writeRecords(path, failedIds);
            }
        }
        return List.of();
    }

    /** {@link #write} of a single record, a batch, a stream or a group commit. */
    abstract List<String> writeRecords(WritePath path, List<String> failedIds) throws Exception;

    /** Deletes one live record (completes the claimed jobs of a queue). */
    abstract void deleteOne();

    /** @return three new ids, kept as {@link #streamed} */
    final List<String> streamIds() {
        streamed = List.of(UuidV7.generate(), UuidV7.generate(), UuidV7.generate());
        return streamed;
    }

    /** Runs a write of the given ids; @return them, once it returned */
    static List<String> done(List<String> ids, List<String> failedIds, Runnable write) {
        failedIds.addAll(ids);
        write.run();
        failedIds.clear();
        return ids;
    }

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
    final List<String> verifyErrors() {
        return store.verify().errors();
    }

    @Override
    public final void close() {
        store.close();
    }

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
        Docs(Path root) {
            super(root);
        }

        private DocStore docs() {
            return (DocStore) store;
        }

        @Override
        Path folder() {
            return root.resolve("docs");
        }

        @Override
        Store<?, ?, ?> openStore() {
            DocStore docs = DocStore.open(root, "docs", Seams.docOptions(dir -> seam = FailingFiles.at(dir)));
            docs.indexes().field("kind").field("u").unique().field("r").range().sync();
            return docs;
        }

        @Override
        void settle(WritePath path) throws IOException {
            List<String> ids = new ArrayList<>();
            for (long i = 0; i < 6; i++) {
                ids.add(docs().put(Map.of("kind", i % 3, "u", "u" + i, "r", i * 10)).id());
            }
            docs().put(Map.of("kind", 2L, "u", "u-over", "r", 99L), ids.get(0));
            docs().delete(ids.get(1));
            if (path == WritePath.REPAIR) {
                Files.writeString(docs().pathForId(ids.get(2)), "{\"kind\": tr");
            }
        }

        @Override
        boolean has(WritePath path) {
            return path != WritePath.CLAIM;
        }

        @Override
        void deleteOne() {
            docs().delete(docs().ids().findFirst().orElseThrow());
        }

        private static Map<String, Object> data(String id) {
            return Map.of("kind", 1L, "u", "n-" + id, "r", 5L);
        }

        @Override
        List<String> writeRecords(WritePath path, List<String> failedIds) throws Exception {
            List<String> ids = List.of(UuidV7.generate(), UuidV7.generate(), UuidV7.generate());
            return switch (path) {
                case SINGLE -> done(ids.subList(0, 1), failedIds, () -> docs().put(data(ids.get(0)), ids.get(0)));
                case BATCH -> done(ids, failedIds, () -> docs().putMany(ids.stream()
                        .map(id -> Map.of("id", id, "data", data(id))).toList()));
                case STREAM -> {
                    List<String> streamIds = streamIds();
                    docs().putStream(streamIds.stream().map(id -> Map.of("id", id, "data", data(id))).toList());
                    yield streamIds;
                }
                default -> group(id -> docs().put(data(id), id), failedIds);
            };
        }

        @Override
        Object readState() {
            Map<String, Object> all = new TreeMap<>();
            docs().stream().forEach(r -> all.put(r.id(), r.data()));
            all.put("index kind=1", docs().query().where("kind").eq(1L).count());
            return all;
        }

        @Override
        boolean visible(String id) {
            return docs().get(id).isPresent();
        }
    }

    static final class Log extends FaultSubject {
        Log(Path root) {
            super(root);
        }

        private SegmentedLog log() {
            return (SegmentedLog) store;
        }

        @Override
        Path folder() {
            return root.resolve("events");
        }

        @Override
        Store<?, ?, ?> openStore() {
            return SegmentedLog.open(root, "events", Seams.logOptions(dir -> seam = FailingFiles.at(dir)));
        }

        @Override
        void settle(WritePath path) throws IOException {
            List<String> ids = new ArrayList<>();
            for (long i = 0; i < 6; i++) {
                ids.add(log().put(Map.of("n", i)).id());
            }
            log().put(Map.of("n", 10L), ids.get(0));
            log().put(Map.of("n", 11L), ids.get(2));
            log().delete(ids.get(1));
            if (path == WritePath.REPAIR) {
                // damage inside the segment, which only a repair removes (an open would cut a bad tail
                // alone), and a bad tail after it
                store.close();
                Path segment;
                try (Stream<Path> segs = Files.list(folder().resolve("segments"))) {
                    segment = segs.filter(p -> p.toString().endsWith(".ndjson")).sorted().reduce((a, b) -> b).orElseThrow();
                }
                byte[] bytes = Files.readAllBytes(segment);
                int lastLine = bytes.length - 1;
                while (lastLine > 0 && bytes[lastLine - 1] != '\n') {
                    lastLine--;
                }
                byte[] garbage = "{\"torn\":tr\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                java.io.ByteArrayOutputStream damaged = new java.io.ByteArrayOutputStream();
                damaged.write(bytes, 0, lastLine);
                damaged.write(garbage);
                damaged.write(bytes, lastLine, bytes.length - lastLine);
                Files.write(segment, damaged.toByteArray());
                open();
                damage(segment);
            }
        }

        @Override
        boolean has(WritePath path) {
            return path != WritePath.REINDEX && path != WritePath.CLAIM;
        }

        @Override
        void deleteOne() {
            log().delete(log().stream().findFirst().orElseThrow().id());
        }

        @Override
        List<String> writeRecords(WritePath path, List<String> failedIds) throws Exception {
            List<String> ids = List.of(UuidV7.generate(), UuidV7.generate(), UuidV7.generate());
            return switch (path) {
                case SINGLE -> done(ids.subList(0, 1), failedIds, () -> log().put(Map.of("n", 20L), ids.get(0)));
                case BATCH -> done(ids, failedIds, () -> log().appendMany(ids.stream()
                        .map(id -> Map.of("id", id, "data", Map.of("n", 30L))).toList()));
                case STREAM -> {
                    List<String> streamIds = streamIds();
                    log().appendStream(streamIds.stream().map(id -> Map.of("id", id, "data", Map.of("n", 50L))).toList());
                    yield streamIds;
                }
                default -> group(id -> log().put(Map.of("n", 40L), id), failedIds);
            };
        }

        @Override
        Object readState() {
            Map<String, Object> all = new TreeMap<>();
            log().stream().forEach(r -> all.put(r.id(), r.data()));
            return all;
        }

        @Override
        boolean visible(String id) {
            return log().get(id).isPresent();
        }
    }

    static final class Jobs extends FaultSubject {
        Jobs(Path root) {
            super(root);
        }

        private Queue queue() {
            return (Queue) store;
        }

        @Override
        Path folder() {
            return root.resolve("jobs");
        }

        @Override
        Store<?, ?, ?> openStore() {
            return Queue.open(root, "jobs", Seams.queueOptions(dir -> seam = FailingFiles.at(dir)));
        }

        /** Jobs claimed and not completed yet. */
        private final List<String> claimed = new ArrayList<>();

        @Override
        void settle(WritePath path) throws IOException {
            for (long i = 0; i < 6; i++) {
                queue().enqueue(Map.of("n", i));
            }
            queue().claimMany(3).forEach(r -> claimed.add(r.id()));
            queue().complete(claimed.remove(0));
            queue().complete(claimed.remove(0));
            if (path == WritePath.REPAIR) {
                damage(folder().resolve("queue.log"));
            }
        }

        @Override
        boolean has(WritePath path) {
            return path != WritePath.REINDEX && path != WritePath.STREAM;
        }

        @Override
        void deleteOne() {
            queue().completeMany(claimed);
            claimed.clear();
        }

        @Override
        List<String> writeRecords(WritePath path, List<String> failedIds) throws Exception {
            return switch (path) {
                case SINGLE -> {
                    String id = UuidV7.generate();
                    yield done(List.of(id), failedIds, () -> queue().enqueue(Map.of("n", 20L), id));
                }
                case BATCH -> queue().enqueueMany(List.of(Map.of("n", 30L), Map.of("n", 31L), Map.of("n", 32L)));
                default -> group(id -> queue().enqueue(Map.of("n", 40L), id), failedIds);
            };
        }

        @Override
        Object readState() {
            return queue().counts();
        }

        @Override
        boolean visible(String id) {
            try {
                return Files.readString(folder().resolve("queue.log")).contains(id);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}

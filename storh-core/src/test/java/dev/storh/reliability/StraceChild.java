package dev.storh.reliability;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.log.SegmentedLogOptions;
import dev.storh.queue.Queue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Child JVM of {@link StraceOrderTest}, run under {@code strace -f}: opens a store, then brackets
 * one operation between two marker syscalls ({@code stat} of {@code <root>/STRACE-BEGIN} and
 * {@code <root>/STRACE-END}) so that the parent finds that operation's system calls in the trace.
 */
public final class StraceChild {

    private StraceChild() {
    }

    /**
     * @param args root, operation (put, putMany, delete, reindex, logPut, appendMany, logRoll,
     *     logCompact, enqueue, queueCompact)
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath();
        String op = args[1];
        switch (op) {
            case "put", "putMany", "delete", "reindex" -> {
                try (DocStore docs = DocStore.open(root, "docs")) {
                    docs.indexes().field("kind").sync();
                    String first = docs.put(Map.of("kind", 1L)).id();
                    docs.put(Map.of("kind", 2L), first);
                    mark(root, "BEGIN");
                    switch (op) {
                        case "put" -> docs.put(Map.of("kind", 3L));
                        case "putMany" -> docs.putMany(List.of(Map.of("kind", 4L), Map.of("kind", 5L)));
                        case "delete" -> docs.delete(first);
                        default -> docs.reindex();
                    }
                    mark(root, "END");
                }
            }
            case "logPut", "appendMany", "logRoll", "logCompact" -> {
                SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(1000).build();
                try (SegmentedLog log = SegmentedLog.open(root, "events", options)) {
                    String first = log.put(Map.of("n", 1L)).id();
                    log.put(Map.of("n", 2L), first);
                    mark(root, "BEGIN");
                    switch (op) {
                        case "logPut" -> log.put(Map.of("n", 3L));
                        case "appendMany" -> log.appendMany(List.of(Map.of("n", 4L), Map.of("n", 5L)));
                        case "logRoll" -> log.put(Map.of("n", 6L, "pad", "y".repeat(1200)));
                        default -> log.compact();
                    }
                    mark(root, "END");
                }
            }
            case "enqueue", "queueCompact" -> {
                try (Queue queue = Queue.open(root, "jobs")) {
                    String first = queue.enqueue(Map.of("n", 1L));
                    queue.claim();
                    queue.complete(first);
                    mark(root, "BEGIN");
                    if (op.equals("enqueue")) {
                        queue.enqueue(Map.of("n", 2L));
                    } else {
                        queue.compact();
                    }
                    mark(root, "END");
                }
            }
            default -> throw new IllegalArgumentException(op);
        }
    }

    private static void mark(Path root, String what) {
        Files.exists(root.resolve("STRACE-" + what));
    }
}

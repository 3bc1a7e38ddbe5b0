package dev.storh.doc;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Main class run in a second JVM by {@link DocStoreLockingTest}: writes records into a collection. */
public final class SecondJvmWriter {

    private SecondJvmWriter() {
    }

    /**
     * @param args root, collection, count, then ids that both processes rewrite
     */
    public static void main(String[] args) {
        try (DocStore store = DocStore.open(Path.of(args[0]), args[1])) {
            writeAll(store, "child", Integer.parseInt(args[2]), Arrays.asList(args).subList(3, args.length));
        }
    }

    static void writeAll(DocStore store, String writer, int count, List<String> sharedIds) {
        for (int i = 0; i < count; i++) {
            store.put(Map.of("writer", writer, "i", (long) i));
            if (i % 10 == 0) {
                for (String id : sharedIds) {
                    store.put(Map.of("writer", writer, "round", (long) i, "payload", writer + "-" + i), id);
                }
            }
        }
    }
}

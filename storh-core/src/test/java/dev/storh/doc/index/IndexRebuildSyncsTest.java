package dev.storh.doc.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The folder fsyncs of a definition change's rebuild: every live index folder a built file or
 * folder is moved into is fsynced after its last move and before the change returns, and once
 * only; the build tree's folders, removed after, are not fsynced for the moves.
 */
class IndexRebuildSyncsTest {

    @TempDir
    Path root;

    /** Records renames and folder fsyncs in order. */
    private static final class Recording extends ForwardingFiles {
        private final List<String> calls;

        Recording(Path folder, List<String> calls) {
            super(LocalFiles.at(folder));
            this.calls = calls;
        }

        @Override
        public void rename(String from, String to) throws IOException {
            files.rename(from, to);
            calls.add("rename " + from + " " + to);
        }

        @Override
        public boolean exchange(String a, String b) throws IOException {
            boolean done = files.exchange(a, b);
            if (done) {
                calls.add("rename " + a + " " + b);
            }
            return done;
        }

        @Override
        public void syncDirectory(String dir) throws IOException {
            files.syncDirectory(dir);
            calls.add("sync " + dir);
        }
    }

    private static String parent(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? "" : name.substring(0, slash);
    }

    @Test
    void eachLiveFolderAMoveWentIntoIsFsyncedOnceAfterItsLastMove() {
        List<String> calls = Collections.synchronizedList(new ArrayList<>());
        try (DocStore store = DocStore.open(root, "c",
                DocStoreOptions.builder().files(folder -> new Recording(folder, calls)).build())) {
            for (int i = 0; i < 40; i++) {
                store.put(Map.of("kind", i % 3 == 0 ? "page" : "post", "bucket", (long) (i % 4), "at", 1_000L + i));
            }
            calls.clear();
            store.indexes().field("kind").index().field("bucket").index().field("at").range().sync();
            List<String> seen = new ArrayList<>(calls);
            Map<String, Integer> lastMoveInto = new HashMap<>();
            Map<String, List<Integer>> syncs = new HashMap<>();
            for (int i = 0; i < seen.size(); i++) {
                String[] c = seen.get(i).split(" ");
                if (c[0].equals("rename") && c[2].contains(".storh/indexes/entries/")) {
                    lastMoveInto.put(parent(c[2]), i);
                } else if (c[0].equals("sync")) {
                    syncs.computeIfAbsent(c.length > 1 ? c[1] : "", k -> new ArrayList<>()).add(i);
                }
            }
            assertThat(lastMoveInto).as("moves into the live tree (%s)", seen).isNotEmpty();
            lastMoveInto.forEach((folder, at) -> assertThat(syncs.getOrDefault(folder, List.of()))
                    .as("fsyncs of %s after its last move (%s)", folder, seen).anyMatch(s -> s > at));
            syncs.forEach((folder, at) -> {
                if (folder.equals(".storh/indexes/entries") || folder.startsWith(".storh/indexes/entries/")) {
                    assertThat(at).as("fsyncs of %s (%s)", folder, seen).hasSize(1);
                }
            });
            assertThat(store.query().where("kind").eq("page").count()).isEqualTo(14);
            assertThat(store.query().where("bucket").eq(2L).count()).isEqualTo(10);
            assertThat(store.query().where("at").between(1_010L, 1_019L).count()).isEqualTo(10);
        }
    }
}

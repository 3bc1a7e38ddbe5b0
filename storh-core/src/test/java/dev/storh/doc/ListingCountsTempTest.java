package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The saved listing counts are written through a temp file named by the writing process; a process
 * killed during that save leaves the temp behind without a writer marker, so the next open removes
 * it itself (found by the crash harness: a kill during a recovering open).
 */
class ListingCountsTempTest {

    @TempDir
    Path root;

    @Test
    void anOpenRemovesTheCountsTempOfAGoneProcessAndKeepsALiveOnesAndOtherFiles() throws Exception {
        try (DocStore store = DocStore.open(root, "c")) {
            store.put(Map.of("n", 1));
        }
        Path meta = root.resolve("c/.storh");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path dead = Files.writeString(meta.resolve(".listing-counts." + gone.pid() + ".1a2b.tmp"), "torn");
        Path live = Files.writeString(meta.resolve(".listing-counts." + ProcessHandle.current().pid() + ".3c4d.tmp"),
                "being written");
        Path other = Files.writeString(meta.resolve(".listing-counts.x.tmp"), "not a save's name");

        try (DocStore store = DocStore.open(root, "c")) {
            assertThat(dead).as("temp of a process that is gone").doesNotExist();
            assertThat(live).as("temp of a live process (this one)").exists();
            assertThat(other).as("a name no save writes").exists();
            assertThat(store.count()).isEqualTo(1);
        }
    }
}

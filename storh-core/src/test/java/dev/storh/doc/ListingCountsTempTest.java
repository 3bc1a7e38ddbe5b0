package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The saved listing counts are written in place and end with their length and CRC-32, so a save
 * leaves no temp file behind, whatever kills it: a torn or interleaved file only fails its check.
 * Temp files that saves of earlier versions left (found by the crash harness: a kill during a
 * recovering open) are removed by the opens that sweep the collection.
 */
class ListingCountsTempTest {

    @TempDir
    Path root;

    @Test
    void aSaveWritesTheCountsInPlaceWithoutATempFile() throws Exception {
        try (DocStore store = DocStore.open(root, "c")) {
            for (int i = 0; i < 300; i++) {
                store.put(Map.of("n", (long) i));
            }
        }
        RecordListingTest.age(root.resolve("c/data"));
        try (DocStore store = DocStore.open(root, "c")) {
            assertThat(store.count()).isEqualTo(300); // lists the buckets, and saves their counts at once
            try (Stream<Path> meta = Files.list(root.resolve("c/.storh"))) {
                assertThat(meta.map(p -> p.getFileName().toString())).contains("listing-counts")
                        .noneMatch(n -> n.endsWith(".tmp"));
            }
        }
        String text = Files.readString(root.resolve("c/.storh/listing-counts"));
        assertThat(text).startsWith("storh-listing-counts 2\n");
        String body = text.substring(0, text.lastIndexOf('\n', text.length() - 2) + 1);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        assertThat(text).endsWith("\nend " + body.length() + " " + Long.toHexString(crc.getValue()) + "\n");
        assertThat(body.lines().skip(1).mapToLong(l -> Long.parseLong(l.split("\t")[2])).sum()).isEqualTo(300);
    }

    @Test
    void aCountsFileThatIsNotWholeIsNotUsed() throws Exception {
        List<String> ids = new ArrayList<>();
        try (DocStore store = DocStore.open(root, "c")) {
            for (int i = 0; i < 300; i++) {
                ids.add(store.put(Map.of("n", (long) i)).id());
            }
        }
        RecordListingTest.age(root.resolve("c/data"));
        try (DocStore store = DocStore.open(root, "c")) {
            assertThat(store.count()).isEqualTo(300);
        }
        Path counts = root.resolve("c/.storh/listing-counts");
        byte[] whole = Files.readAllBytes(counts);
        String text = new String(whole, StandardCharsets.UTF_8);
        // A line that says 7 records more than its bucket holds, in a file whose end line no longer matches.
        int line = text.indexOf('\n') + 1;
        String[] first = text.substring(line, text.indexOf('\n', line)).split("\t");
        String lying = text.substring(0, line) + first[0] + "\t" + first[1] + "\t" + (Integer.parseInt(first[2]) + 7) + "\t"
                + first[3] + text.substring(text.indexOf('\n', line));
        String[] damages = {
            lying,
            text.substring(0, text.length() / 2), // torn by a crash
            text.substring(0, text.lastIndexOf("end ")), // no end line
            text + text.substring(0, line), // another save's tail after it
        };
        for (String damaged : damages) {
            Files.writeString(counts, damaged);
            try (DocStore store = DocStore.open(root, "c")) {
                assertThat(store.count()).as("counts file %s", damaged).isEqualTo(300);
                assertThat(store.ids().toList()).containsExactlyElementsOf(ids.stream().sorted().toList());
            }
        }
    }

    @Test
    void anOpenThatSweepsRemovesTheCountsTempOfAGoneProcessAndKeepsALiveOnesAndOtherFiles() throws Exception {
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
        Files.createFile(meta.resolve("writers/" + gone.pid() + ".0badc0de")); // the writer that was killed

        try (DocStore store = DocStore.open(root, "c")) {
            assertThat(store.recovery().crashedWriter()).isTrue();
            assertThat(dead).as("temp of a process that is gone").doesNotExist();
            assertThat(live).as("temp of a live process (this one)").exists();
            assertThat(other).as("a name no save writes").exists();
            assertThat(store.count()).isEqualTo(1);
        }
    }
}

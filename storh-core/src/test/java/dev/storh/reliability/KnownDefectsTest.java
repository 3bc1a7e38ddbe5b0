package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.DocStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Defects the reliability suite found and that are not fixed yet: each test states the wanted
 * behaviour and stays disabled (out of the CI run) until the fix lands.
 */
class KnownDefectsTest {

    @TempDir
    Path root;

    /**
     * Found by {@link CrashHarnessTest} seed 19001 round 1 (kill after 973 ms, during a reindex):
     * the index build folder {@code .storh/indexes/entries.tmp-<hex>} survives the next open; it is
     * only swept by the next rebuild.
     */
    @Test
    void anIndexBuildFolderLeftByAKillIsGoneAfterOpen() throws Exception {
        try (DocStore docs = DocStore.open(root, "docs")) {
            docs.indexes().field("kind").index().sync();
            docs.put(Map.of("kind", 1L));
        }
        Path leftover = root.resolve("docs/.storh/indexes/entries.tmp-0123456789ab/eq");
        Files.createDirectories(leftover);
        Files.writeString(leftover.resolve("6b696e64"), "half an index");
        try (DocStore docs = DocStore.open(root, "docs")) {
            assertThat(docs.count()).isEqualTo(1);
            assertThat(leftover.getParent()).doesNotExist();
        }
    }

    /**
     * Found by {@link CrashHarnessTest} in the long run, seed 19001 round 9 (kill 783 ms after the
     * child's start, during open): a record is on disk but missing from every index, and verify
     * reports "Index mismatch". Opening a collection whose writer crashed deletes the stale writer
     * marker ({@code WriterMarkers.recoverOnOpen}) before the index rebuild registers the opener's own
     * marker; a kill in between leaves no marker, so the next open does not rebuild. Timing-dependent:
     * this test kills every round from the child's start.
     */
    @Test
    void killsDuringARecoveringOpenLeaveNoIndexDrift() throws Exception {
        assertThat(CrashHarnessTest.run(root, List.of(19_001L), 30, 1, CrashHarnessTest.SHORT_THREADS)).isEmpty();
    }

    /**
     * Found by {@link PowerCutTest}: files each engine creates, writes, renames or deletes without the
     * byte seam, which the power-cut simulator can therefore not drop at a cut (it takes them over as
     * durable and prints them as "seam bypassed"). Every engine's files go through it now.
     */
    @ParameterizedTest(name = "engine {0}")
    @ValueSource(strings = {"D", "L", "Q"})
    void everyFileOfAnEngineGoesThroughTheByteSeam(String engine) throws Exception {
        assertThat(PowerCutTest.run(root, engine, List.of(19_101L), 5, 30).bypasses()).isEmpty();
    }
}

package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.cache.Cache;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records read by the size their look saw: a file system that reads short before a file's end, or a
 * file replaced between the look and the read, still gives the whole record, never a corrupt one.
 */
class SizedRecordReadTest {

    @TempDir
    Path root;

    /** Reads by a size seen give the first half of the file, as a file system reading short mid-file would. */
    private static final class ShortReads extends ForwardingFiles {
        final AtomicInteger sized = new AtomicInteger();

        ShortReads(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            byte[] all = files.readAll(name, sizeSeen);
            if (!name.startsWith("data/")) {
                return all;
            }
            sized.incrementAndGet();
            return Arrays.copyOf(all, all.length / 2);
        }
    }

    /** Replaces each record file by a longer one right before a read by its size seen. */
    private static final class ReplacedBeforeRead extends ForwardingFiles {
        ReplacedBeforeRead(Path folder) {
            super(LocalFiles.at(folder));
        }

        @Override
        public byte[] readAll(String name, long sizeSeen) throws IOException {
            if (name.startsWith("data/")) {
                Path file = path(name);
                String id = DocLayout.stripRecordExtension(file.getFileName().toString());
                Path temp = file.resolveSibling(".replacing.tmp");
                Files.writeString(temp, "{\"id\":\"" + id + "\",\"data\":{\"v\":\"" + "longer ".repeat(50) + "\"}}");
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return files.readAll(name, sizeSeen);
        }
    }

    @Test
    void bytesCutByAShortReadAreReadAgainWhole() {
        String id;
        try (DocStore writer = DocStore.open(root, "c")) {
            id = writer.put(Map.of("v", "a value long enough to be cut in half", "n", 42L)).id();
        }
        ShortReads[] seam = new ShortReads[1];
        DocStoreOptions options = DocStoreOptions.builder().cache(Cache.memory(10)).files(folder -> {
            seam[0] = new ShortReads(folder);
            return seam[0];
        }).build();
        try (DocStore reader = DocStore.open(root, "c", options)) {
            StorageRecord r = reader.get(id).orElseThrow();
            assertThat(r.data()).containsEntry("v", "a value long enough to be cut in half").containsEntry("n", 42L);
            assertThat(seam[0].sized.get()).as("the read by size was tried first").isEqualTo(1);
            assertThat(reader.get(id).orElseThrow().data()).isEqualTo(r.data());
        }
    }

    @Test
    void aFileReplacedBetweenTheLookAndTheReadIsReadWhole() {
        String id;
        try (DocStore writer = DocStore.open(root, "c")) {
            id = writer.put(Map.of("v", "short")).id();
        }
        DocStoreOptions options = DocStoreOptions.builder().cache(Cache.memory(10)).files(ReplacedBeforeRead::new).build();
        try (DocStore reader = DocStore.open(root, "c", options)) {
            assertThat(reader.get(id).orElseThrow().data()).containsEntry("v", "longer ".repeat(50));
        }
    }
}

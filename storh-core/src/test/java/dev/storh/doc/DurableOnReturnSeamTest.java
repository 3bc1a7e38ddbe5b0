package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageRecord;
import dev.storh.fs.ForwardingFiles;
import dev.storh.fs.LocalFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Single puts and deletes on a byte seam whose writes are durable on return (blob storage) go
 * directly, without the batch journal that saves fsyncs on a file system (docs/batch-journal.md);
 * on the local seam they go through the journal. Real files under {@code @TempDir}.
 */
class DurableOnReturnSeamTest {

    @TempDir
    Path root;

    /** The local files, saying that every write is durable on return, and noting appends and folder syncs. */
    private static final class DurableSeam extends ForwardingFiles {

        final List<String> appended = new CopyOnWriteArrayList<>();
        final List<String> syncedFolders = new CopyOnWriteArrayList<>();
        private final boolean durableOnReturn;

        DurableSeam(Path dir, boolean durableOnReturn) {
            super(LocalFiles.at(dir));
            this.durableOnReturn = durableOnReturn;
        }

        @Override
        public boolean durableOnReturn() {
            return durableOnReturn;
        }

        @Override
        public Output append(String name) throws IOException {
            appended.add(name);
            return super.append(name);
        }

        @Override
        public void syncDirectory(String dir) throws IOException {
            syncedFolders.add(dir);
            super.syncDirectory(dir);
        }

        boolean appendedToJournal() {
            return appended.stream().anyMatch(n -> n.endsWith("batch-journal"));
        }
    }

    private DurableSeam seam;

    private DocStore open(boolean durableOnReturn) {
        return DocStore.open(root, "pages", DocStoreOptions.builder()
                .files(dir -> seam = new DurableSeam(dir, durableOnReturn)).build());
    }

    @Test
    void aSeamDurableOnReturnPutsAndDeletesWithoutTheJournal() {
        String id;
        try (DocStore store = open(true)) {
            StorageRecord written = store.put(Map.of("title", "direct"));
            id = written.id();
            assertThat(seam.appendedToJournal()).as("appends: %s", seam.appended).isFalse();
            assertThat(store.get(id).orElseThrow().data()).containsEntry("title", "direct");

            seam.syncedFolders.clear();
            assertThat(store.delete(id)).isTrue();
            assertThat(seam.appendedToJournal()).as("appends: %s", seam.appended).isFalse();
            assertThat(seam.syncedFolders).as("the delete's bucket folder synced at once")
                    .anyMatch(f -> f.contains("data/" + DocLayout.bucketOf(id)));
            assertThat(store.get(id)).isEmpty();
        }
        try (DocStore reopened = open(true)) {
            assertThat(reopened.get(id)).isEmpty();
            assertThat(reopened.put(Map.of("title", "again")).data()).containsEntry("title", "again");
        }
    }

    @Test
    void theLocalSeamPutsAndDeletesThroughTheJournal() {
        try (DocStore store = open(false)) {
            String id = store.put(Map.of("title", "journaled")).id();
            assertThat(seam.appendedToJournal()).as("appends: %s", seam.appended).isTrue();
            seam.appended.clear();
            assertThat(store.delete(id)).isTrue();
            assertThat(seam.appendedToJournal()).as("appends: %s", seam.appended).isTrue();
            assertThat(store.get(id)).isEmpty();
        }
    }
}

package dev.storh.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pull writes its rows in batches, in id order, and writes the rows before a failing one first. */
class MirrorPullBatchesTest {

    @TempDir
    Path root;

    /** A document store as a source that records the size of every batch it is given. */
    private record Counting(MirrorSource store, List<Integer> batches) implements MirrorSource {
        @Override
        public StorageRecord put(Map<String, ?> data, String id) {
            return store.put(data, id);
        }

        @Override
        public long putAll(Map<String, Map<String, Object>> rows) {
            batches.add(rows.size());
            return store.putAll(rows);
        }

        @Override
        public Optional<StorageRecord> get(String id) {
            return store.get(id);
        }

        @Override
        public boolean delete(String id) {
            return store.delete(id);
        }

        @Override
        public Stream<StorageRecord> stream() {
            return store.stream();
        }
    }

    @Test
    void rowsAreWrittenInBatchesAndTheRowsBeforeAFailingOneStayWritten() throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + root.resolve("m.db"));
                DocStore source = DocStore.open(root, "source");
                DocStore back = DocStore.open(root, "back")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 1_203; i++) {
                ids.add(UuidV7.generate(1_700_000_000_000L + i));
            }
            source.putStream(ids.stream().map(id -> Map.<String, Object>of("id", id, "data", Map.of("n", (long) ids.indexOf(id))))
                    .toList());
            SqlMirror out = SqlMirror.builder().connection(db).build().collection(source, "docs");
            out.install();
            out.push();
            List<Integer> batches = new ArrayList<>();
            SqlMirror in = SqlMirror.builder().connection(db).build()
                    .collection(new Counting(MirrorSource.of(back), batches), "docs", null);
            assertThat(in.pull()).isEqualTo(new PullResult(1_203, 0));
            assertThat(batches).containsExactly(Reconciler.BATCH, Reconciler.BATCH, 203);
            assertThat(back.count()).isEqualTo(1_203);
            assertThat(back.get(ids.get(1_000)).orElseThrow().data()).containsEntry("n", 1_000L);
            assertThat(in.pull()).isEqualTo(new PullResult(0, 1_203));

            String bad = UuidV7.generate(1_800_000_000_000L); // sorts after every good row
            try (PreparedStatement insert = db.prepareStatement("INSERT INTO storh_docs (id, hash, data) VALUES (?, 'h', 'nope')")) {
                insert.setString(1, bad);
                insert.executeUpdate();
            }
            String fresh = ids.get(7);
            try (PreparedStatement update = db.prepareStatement("UPDATE storh_docs SET data = '{\"n\":-7}' WHERE id = ?")) {
                update.setString(1, fresh);
                update.executeUpdate();
            }
            assertThatThrownBy(in::pull).hasMessageContaining("invalid JSON for id " + bad);
            assertThat(back.get(fresh).orElseThrow().data()).as("a row before the failing one").containsEntry("n", -7L);
        }
    }
}

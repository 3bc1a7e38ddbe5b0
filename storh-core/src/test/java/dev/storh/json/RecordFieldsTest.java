package dev.storh.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.doc.StoreStats;
import dev.storh.log.LogCompaction;
import dev.storh.log.LogStats;
import dev.storh.mirror.MirrorVerifyReport;
import dev.storh.queue.QueueCounts;
import dev.storh.queue.QueueStats;
import dev.storh.store.CompactReport;
import dev.storh.store.VerifyReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordFieldsTest {

    record Sample(String name, int small, short smaller, byte smallest, long big, boolean flag, List<String> notes,
            LogStats nested, Map<String, Object> extra) {
    }

    @Test
    void keysAreTheComponentsInDeclarationOrderAndIntegersAreLongs() {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("z", 1);
        extra.put("a", new QueueCounts(1, 2, 3));
        Sample sample = new Sample("n", 7, (short) 8, (byte) 9, 10L, true, List.of("x"), new LogStats(1, 2, 3, 4), extra);

        Map<String, Object> map = RecordFields.of(sample);

        assertThat(map).containsExactly(Map.entry("name", "n"), Map.entry("small", 7L), Map.entry("smaller", 8L),
                Map.entry("smallest", 9L), Map.entry("big", 10L), Map.entry("flag", true), Map.entry("notes", List.of("x")),
                Map.entry("nested", Map.of("segments", 1L, "records", 2L, "deleted", 3L, "bytes", 4L)),
                Map.entry("extra", Map.of("z", 1L, "a", Map.of("pending", 1L, "processing", 2L, "done", 3L))));
        assertThat(List.copyOf(((Map<?, ?>) map.get("extra")).keySet())).isEqualTo(List.of("z", "a"));
        assertThat(List.copyOf(((Map<?, ?>) map.get("nested")).keySet())).isEqualTo(List.of("segments", "records", "deleted", "bytes"));
    }

    @Test
    void theMapIsNewAndModifiable() {
        LogStats stats = new LogStats(1, 2, 3, 4);
        Map<String, Object> first = stats.toMap();
        first.put("more", 1L);

        assertThat(stats.toMap()).doesNotContainKey("more").hasSize(4);
    }

    @Test
    void reportShapesKeepTheirKeysOrderAndTypes() {
        assertThat(new StoreStats(3, 100, 1, 5).toMap()).containsExactly(Map.entry("records", 3L), Map.entry("bytes", 100L),
                Map.entry("corrupt", 1L), Map.entry("indexes", 5L));
        assertThat(new QueueStats(1, 2, 3, 40).toMap()).containsExactly(Map.entry("pending", 1L),
                Map.entry("processing", 2L), Map.entry("done", 3L), Map.entry("bytes", 40L));
        assertThat(CanonicalJson.compactText(new VerifyReport<>(false, List.of("bad"), new LogStats(1, 2, 0, 9)).toMap()))
                .isEqualTo("{\"ok\":false,\"errors\":[\"bad\"],\"stats\":{\"segments\":1,\"records\":2,\"deleted\":0,\"bytes\":9}}");
        LogCompaction compaction = new LogCompaction(10, 5, 3, 1, new LogStats(1, 2, 0, 5));
        assertThat(CanonicalJson.compactText(new CompactReport<>(true, 10, 5, compaction).toMap()))
                .isEqualTo("{\"ok\":true,\"bytesBefore\":10,\"bytesAfter\":5,\"segmentsBefore\":3,\"segmentsAfter\":1,"
                        + "\"stats\":{\"segments\":1,\"records\":2,\"deleted\":0,\"bytes\":5}}");
        Map<String, MirrorVerifyReport.CollectionStats> perCollection = new LinkedHashMap<>();
        perCollection.put("b", new MirrorVerifyReport.CollectionStats(2, 1, 1, 0, 0));
        perCollection.put("a", new MirrorVerifyReport.CollectionStats(0, 0, 0, 0, 0));
        assertThat(CanonicalJson.compactText(new MirrorVerifyReport(true, List.of(), perCollection).toMap()))
                .isEqualTo("{\"ok\":true,\"errors\":[],\"stats\":{\"b\":{\"records\":2,\"rows\":1,\"missing\":1,\"stale\":0,"
                        + "\"orphaned\":0},\"a\":{\"records\":0,\"rows\":0,\"missing\":0,\"stale\":0,\"orphaned\":0}}}");
    }
}

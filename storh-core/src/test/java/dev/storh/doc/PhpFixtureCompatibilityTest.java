package dev.storh.doc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.SharedFiles;
import dev.storh.StorageRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** Reads what storh-php 0.5.0 wrote and compares with what the original answered (expected.json). */
class PhpFixtureCompatibilityTest {

    @TempDir
    static Path temp;

    static Path app;
    static Map<String, Object> expected;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void copyFixture() throws Exception {
        app = SharedFiles.copyPhpFixture(temp);
        expected = JsonMapper.builder().build().readValue(
                SharedFiles.expectedAnswers().toFile(), Map.class);
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(String... path) {
        Object node = expected;
        for (String key : path) {
            node = ((Map<String, Object>) node).get(key);
        }
        return (T) node;
    }

    @Test
    void citiesStreamInTheOriginalsOrder() {
        List<String> expectedIds = at("cities", "stream_ids");
        try (DocStore cities = DocStore.open(app, "cities"); Stream<StorageRecord> records = cities.stream()) {
            assertThat(records.map(StorageRecord::id).toList()).hasSize(3000).containsExactlyElementsOf(expectedIds);
            assertThat(cities.ids().toList()).containsExactlyElementsOf(expectedIds);
            assertThat(cities.count()).isEqualTo(3000);
        }
    }

    @Test
    void citiesPointReadsMatch() {
        Map<String, Map<String, Object>> samples = at("cities", "sample_get");
        try (DocStore cities = DocStore.open(app, "cities")) {
            samples.forEach((id, data) -> assertThat(normalise(cities.get(id).orElseThrow().data()))
                    .as(id).isEqualTo(normalise(data)));
        }
    }

    @Test
    void citiesStatsMatchTheOriginalsVerifyStats() {
        Map<String, Object> stats = at("cities", "verify", "stats");
        try (DocStore cities = DocStore.open(app, "cities")) {
            StoreStats ours = cities.stats();
            assertThat(ours.records()).isEqualTo(((Number) stats.get("records")).longValue());
            assertThat(ours.bytes()).isEqualTo(((Number) stats.get("bytes")).longValue());
            assertThat(ours.corrupt()).isZero();
            assertThat(ours.indexes()).isEqualTo(((Number) stats.get("indexes")).intValue());
        }
    }

    @Test
    void pagesReadIncludingTheHandEditedJsoncRecord() {
        Map<String, String> ids = at("pages", "ids");
        Map<String, Object> gets = at("pages", "get");
        try (DocStore pages = DocStore.open(app, "pages")) {
            gets.forEach((slug, data) -> {
                var record = pages.get(ids.get(slug));
                if (data == null) {
                    assertThat(record).as(slug).isEmpty();
                } else {
                    assertThat(normalise(record.orElseThrow().data())).as(slug).isEqualTo(normalise(data));
                }
            });
            Map<String, Object> home = pages.get(ids.get("home")).orElseThrow().data();
            assertThat(home).containsEntry("title", "Home (edited)").containsEntry("weight", 1.0d)
                    .containsEntry("draft", false);
            Map<String, Object> numbers = pages.get(ids.get("numbers")).orElseThrow().data();
            assertThat(numbers).containsEntry("big", 9007199254740993L).containsEntry("small", 1.5e-7);
        }
    }

    @Test
    void rewritingTheOriginalsRecordsGivesTheSameBytes() throws Exception {
        Map<String, String> ids = at("pages", "ids");
        Map<String, String> raw = at("pages", "raw_files");
        try (DocStore pages = DocStore.open(app, "pages")) {
            for (String slug : List.of("a/b", "unicode", "nested", "numbers", "empty-object")) {
                String id = ids.get(slug);
                StorageRecord record = pages.get(id).orElseThrow();
                pages.put(record.data(), id);
                assertThat(Files.readString(pages.pathForId(id), StandardCharsets.UTF_8)).as(slug)
                        .isEqualTo(raw.get(slug));
            }
        }
    }

    /** PHP cannot tell {} from []: compare modulo "empty map equals empty list", numbers by value. */
    private static Object normalise(Object v) {
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                return List.of();
            }
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            m.forEach((k, val) -> out.put(k, normalise(val)));
            return out;
        }
        if (v instanceof List<?> l) {
            return l.stream().map(PhpFixtureCompatibilityTest::normalise).toList();
        }
        if (v instanceof Integer i) {
            return i.longValue();
        }
        if (v instanceof Float f) {
            return f.doubleValue();
        }
        return v;
    }
}

package dev.storh.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.storh.SchemaViolationException;
import dev.storh.StorageException;
import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.doc.index.IndexDefinition;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaTest {

    @TempDir
    Path root;

    static final Schema CITIES = Schema.collection("cities").string("name").range().string("country").index()
            .number("latitude").range().integer("population").range().bool("coastal").mixed("meta")
            .required("name", "country");

    @Test
    void namesMustNotBeBlank() {
        assertThatThrownBy(() -> Schema.collection(" ")).isInstanceOf(StorageException.class).hasMessageContaining("collection");
        assertThatThrownBy(() -> Schema.collection("c").string("")).hasMessageContaining("field");
    }

    @Test
    void typesAreCheckedAsTheOriginalDoes() {
        Schema s = Schema.collection("c").number("rating").required().mixed("meta").required("rating", "meta");
        assertThatNoException().isThrownBy(() -> s.validate(Map.of("rating", 4L, "meta", Map.of("ok", true))));
        assertThatNoException().isThrownBy(() -> s.validate(Map.of("rating", 4.5, "meta", "anything")));
        Map<String, Object> bad = new HashMap<>();
        bad.put("rating", "bad");
        bad.put("meta", null);
        assertThatThrownBy(() -> s.validate(bad)).isInstanceOfSatisfying(SchemaViolationException.class,
                e -> assertThat(e.field()).isEqualTo("rating")).hasMessageContaining("Schema field rating must be float.");
        assertThatThrownBy(() -> CITIES.validate(Map.of("name", "x", "country", "RO", "population", 1.0)))
                .hasMessageContaining("Schema field population must be int.");
        assertThatThrownBy(() -> CITIES.validate(Map.of("name", "x", "country", "RO", "coastal", 1L)))
                .hasMessageContaining("coastal must be bool");
        assertThatThrownBy(() -> CITIES.validate(Map.of("name", "x"))).hasMessageContaining("Missing required schema field: country");
        Map<String, Object> nullCountry = new HashMap<>(Map.of("name", "x"));
        nullCountry.put("country", null);
        assertThatNoException().isThrownBy(() -> CITIES.validate(nullCountry));
        assertThatNoException().isThrownBy(() -> CITIES.validate(Map.of("name", "x", "country", "RO", "extra", List.of())));
    }

    @Test
    void aStoreWithASchemaDefinesItsIndexesAndRefusesBadData() {
        try (DocStore store = DocStore.open(root, "cities", DocStoreOptions.builder().schema(CITIES).build())) {
            assertThat(store.indexes().definitions()).containsExactly(
                    new IndexDefinition("country", false, false), new IndexDefinition("latitude", false, true),
                    new IndexDefinition("name", false, true), new IndexDefinition("population", false, true));
            assertThatThrownBy(() -> store.put(Map.of("name", "Nowhere"))).hasMessageContaining("required");
            assertThat(store.count()).isZero();
            store.put(Map.of("name", "Cluj", "country", "RO", "population", 300_000L));
            assertThat(store.query().where("population").gt(1000).count()).isEqualTo(1);
        }
        assertThatThrownBy(() -> DocStore.open(root, "towns", DocStoreOptions.builder().schema(CITIES).build()))
                .hasMessageContaining("Schema collection does not match DocStore collection");
    }
}

package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.storh.doc.DocStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.core.StorhTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code storh.collections.<name>.index-layout} and the layout of collections Spring creates (the
 * original's unless value deltas are asked for), on real folders: the manifest's {@code layout}
 * member and the value delta files a write leaves.
 */
class IndexLayoutPropertyTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class));

    @Test
    void aCollectionSpringCreatesGetsTheOriginalsLayoutUnlessValueDeltasAreAsked() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.cities.indexes[0].field=country")
            .run((context) -> {
                DocStore cities = context.getBean(StorhStores.class).docStore("cities");
                cities.put(Map.of("name", "Cluj", "country", "RO"));
                cities.put(Map.of("name", "Iasi", "country", "RO"));
                assertThat(cities.indexes().valueDeltas()).isFalse();
                assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(2);
                // a collection no property names, created by the template, too
                DocStore notes = context.getBean(StorhTemplate.class).docStore("notes");
                notes.indexes().field("tag").sync();
                notes.put(Map.of("tag", "a"));
                assertThat(notes.indexes().valueDeltas()).isFalse();
            });
        assertThat(manifest("cities")).doesNotContain("layout");
        assertThat(deltaFiles("cities")).isEmpty();
        assertThat(manifest("notes")).doesNotContain("layout");
        // asked for: value deltas from the first write
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.collections.towns.index-layout=value-deltas",
                    "storh.collections.towns.indexes[0].field=country")
            .run((context) -> {
                DocStore towns = context.getBean(StorhStores.class).docStore("towns");
                towns.put(Map.of("name", "Cluj", "country", "RO"));
                towns.put(Map.of("name", "Iasi", "country", "RO")); // appended to the value file's delta
                assertThat(towns.indexes().valueDeltas()).isTrue();
                assertThat(towns.query().where("country").eq("RO").count()).isEqualTo(2);
            });
        assertThat(manifest("towns")).contains("\"layout\": \"value-deltas\"");
        assertThat(deltaFiles("towns")).isNotEmpty();
    }

    @Test
    void anExistingCollectionKeepsTheLayoutItsManifestRecords() {
        try (DocStore original = DocStore.open(this.root, "cities")) {
            original.indexes().field("country").sync();
            original.put(Map.of("name", "Cluj", "country", "RO"));
        }
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.cities.indexes[0].field=country")
            .run((context) -> {
                DocStore cities = context.getBean(StorhStores.class).docStore("cities");
                cities.put(Map.of("name", "Iasi", "country", "RO"));
                assertThat(cities.indexes().valueDeltas()).isFalse();
                assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(2);
            });
        assertThat(manifest("cities")).doesNotContain("layout");
        assertThat(deltaFiles("cities")).isEmpty();
        // records without indexes, as the original may leave them, keep the original's layout too
        try (DocStore plain = DocStore.open(this.root, "places")) {
            plain.put(Map.of("name", "Sibiu"));
        }
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.places.indexes[0].field=name")
            .run((context) -> assertThat(context.getBean(StorhStores.class).docStore("places").indexes().valueDeltas())
                .isFalse());
    }

    @Test
    void anExplicitLayoutIsSwitchedTo() {
        try (DocStore original = DocStore.open(this.root, "cities")) {
            original.indexes().field("country").sync();
            original.put(Map.of("name", "Cluj", "country", "RO"));
        }
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.collections.cities.index-layout=value-deltas",
                    "storh.collections.fresh.index-layout=original", "storh.collections.fresh.indexes[0].field=kind")
            .run((context) -> {
                StorhStores stores = context.getBean(StorhStores.class);
                DocStore cities = stores.docStore("cities");
                cities.put(Map.of("name", "Iasi", "country", "RO"));
                assertThat(cities.indexes().valueDeltas()).isTrue();
                assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(2);
                DocStore fresh = stores.docStore("fresh");
                fresh.put(Map.of("kind", "k"));
                assertThat(fresh.indexes().valueDeltas()).isFalse();
            });
        assertThat(manifest("cities")).contains("\"layout\": \"value-deltas\"");
        assertThat(manifest("fresh")).doesNotContain("layout");
        assertThat(deltaFiles("fresh")).isEmpty();
        // and back: the original's files again, every index rebuilt without deltas
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.cities.index-layout=original")
            .run((context) -> {
                DocStore cities = context.getBean(StorhStores.class).docStore("cities");
                assertThat(cities.indexes().valueDeltas()).isFalse();
                assertThat(cities.query().where("country").eq("RO").count()).isEqualTo(2);
            });
        assertThat(manifest("cities")).doesNotContain("layout");
        assertThat(deltaFiles("cities")).isEmpty();
    }

    @Test
    void anUnknownLayoutFailsNamingTheProperty() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.cities.index-layout=deltas")
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("deltas"))
            .run((context) -> assertThat(context.getStartupFailure())
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasStackTraceContaining("storh.collections.cities.index-layout"));
    }

    private String manifest(String collection) throws java.io.UncheckedIOException {
        try {
            return Files.readString(this.root.resolve(collection).resolve(".storh/indexes/manifest.jsonc"));
        }
        catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private List<Path> deltaFiles(String collection) {
        try (Stream<Path> files = Files.walk(this.root.resolve(collection).resolve(".storh/indexes/entries"))) {
            return files.filter((p) -> p.getFileName().toString().endsWith(".delta.jsonl"))
                .filter((p) -> p.toString().contains("/eq/"))
                .toList();
        }
        catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

}

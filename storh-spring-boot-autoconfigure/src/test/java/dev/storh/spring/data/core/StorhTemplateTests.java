package dev.storh.spring.data.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.sample.cities.City;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataRetrievalFailureException;
import org.springframework.data.domain.Sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class StorhTemplateTests {

    @TempDir
    Path root;

    private StorhTemplate template;

    @BeforeEach
    void createTemplate() {
        this.template = new StorhTemplate(this.root);
    }

    @AfterEach
    void closeTemplate() {
        this.template.close();
    }

    @Test
    void oneDocStorePerCollectionUnderTheCollectionsFolder() {
        DocStore cities = this.template.docStore("cities");

        assertThat(this.template.docStore("cities")).isSameAs(cities);
        assertThat(this.template.docStore("other")).isNotSameAs(cities);
        assertThat(cities.collectionRoot()).isEqualTo(this.root.resolve("cities"));
        assertThat(this.template.collectionsFolder()).isEqualTo(this.root);
        assertThat(this.template.getCollection(City.class)).isEqualTo("cities");
    }

    @Test
    void closedTemplateRefusesWork() {
        this.template.save(City.of("Oslo", "NO", 1L, true));
        this.template.close();
        this.template.close();

        assertThatIllegalStateException().isThrownBy(() -> this.template.count(City.class))
            .withMessageContaining("closed")
            .withMessageContaining(this.root.toString());
    }

    @Test
    void findCountExistsAndDeleteByQuery() {
        City a = this.template.save(City.of("A", "FR", 10L, true));
        City b = this.template.save(City.of("B", "DE", 20L, false));
        City c = this.template.save(City.of("C", "FR", 30L, false));
        City d = this.template.save(City.of("D", "FR", 40L, true));
        StorhQuery french = StorhQuery.where(StorhCriteria.where("country").is("FR"));

        assertThat(this.template.find(french, City.class)).containsExactly(a, c, d);
        assertThat(this.template.find(french.withSort(Sort.by("population").descending()).withOffset(1).withLimit(1),
                City.class))
            .containsExactly(c);
        try (Stream<City> stream = this.template.stream(french.withLimit(2), City.class)) {
            assertThat(stream).containsExactly(a, c);
        }
        assertThat(this.template.count(french, City.class)).isEqualTo(3);
        assertThat(this.template.count(StorhQuery.all(), City.class)).isEqualTo(4);
        assertThat(this.template.exists(french, City.class)).isTrue();
        assertThat(this.template.exists(StorhQuery.where(StorhCriteria.where("country").is("ES")),
                City.class))
            .isFalse();

        assertThat(this.template.delete(french.withSort(Sort.by("name").descending()).withLimit(2), City.class))
            .containsExactly(d, c);
        try (Stream<City> all = this.template.findAll(City.class)) {
            assertThat(all).containsExactly(a, b);
        }
        assertThat(this.template.deleteAll(City.class)).isEqualTo(2);
        assertThat(this.template.count(City.class)).isZero();
    }

    @Test
    void storedObjectThatDoesNotFitTheTypeNamesIdCollectionAndType() {
        StorageRecord stored = this.template.docStore("cities").put(Map.of("name", "X", "population", "many"));

        assertThatExceptionOfType(DataRetrievalFailureException.class)
            .isThrownBy(() -> this.template.findById(stored.id(), City.class))
            .withMessageContaining(stored.id())
            .withMessageContaining("'cities'")
            .withMessageContaining(City.class.getName());
    }

    @Test
    void unknownStoredPropertiesAreIgnored() {
        StorageRecord stored = this.template.docStore("cities")
            .put(Map.of("name", "Oslo", "country", "NO", "mayor", "Someone", "population", 709_000));

        assertThat(this.template.findById(stored.id(), City.class))
            .contains(new City(stored.id(), "Oslo", "NO", 709_000L, null));
    }

    @Test
    void storageFailureIsTranslatedWithThePath() throws Exception {
        // a file where the collections folder should be
        Path file = this.root.resolve("blocked");
        Files.writeString(file, "x");
        try (StorhTemplate blocked = new StorhTemplate(file)) {
            assertThatExceptionOfType(DataAccessResourceFailureException.class)
                .isThrownBy(() -> blocked.save(City.of("Oslo", "NO", 1L, true)))
                .withMessageContaining(file.toString());
        }
    }

    @Test
    void queryValuesAreConvertedAsJacksonWritesThem() {
        StorhEntityConverter converter = this.template.getConverter();

        assertThat(converter.toJsonValue(LocalDate.of(2024, 2, 29))).isEqualTo("2024-02-29");
        assertThat(converter.toJsonValue(Sort.Direction.ASC)).isEqualTo("ASC");
        assertThat(converter.toJsonValue(new String[] { "a", "b" })).isEqualTo(List.of("a", "b"));
        assertThat(converter.toJsonValue(7)).isEqualTo(7);
        assertThat(converter.toJsonValue(null)).isNull();
    }

}

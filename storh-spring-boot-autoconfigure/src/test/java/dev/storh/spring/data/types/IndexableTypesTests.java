package dev.storh.spring.data.types;

import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.mapping.Indexed;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.data.types.TypedRecord.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.FilterType;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.annotation.Id;
import org.springframework.data.mapping.MappingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Types an index (or a range condition) cannot serve with the answers of a scan are refused when
 * the mapping is built, naming the property; a repository using one fails application startup.
 */
class IndexableTypesTests {

    @TempDir
    Path root;

    @Test
    void rangeIndexesOnTypesWhoseJsonDoesNotSortLikeTheirValuesAreRefusedNamingTheProperty() {
        assertRefused(RangeEnum.class, "'level'", "TypedRecord$Level", "enum");
        assertRefused(RangeUuid.class, "'key'", "java.util.UUID", "text order is not UUID order");
        assertRefused(RangeOffset.class, "'at'", "java.time.OffsetDateTime", "store an Instant");
        assertRefused(RangeZoned.class, "'at'", "java.time.ZonedDateTime", "store an Instant");
    }

    @Test
    void indexesOnMapsAndNestedObjectsAreRefused() {
        assertRefused(IndexedMap.class, "'attributes'", "java.util.Map", "not maps or nested objects");
        assertRefused(IndexedNested.class, "'address'", "Address", "not maps or nested objects",
                "put it on the nested object's own properties");
    }

    @Test
    void aListGetsAMultikeyIndexButNoRangeIndexAndACaseInsensitiveIndexNoRange() {
        StorhMappingContext context = new StorhMappingContext();
        assertThat(context.getRequiredPersistentEntity(IndexedList.class).getRequiredPersistentProperty("tags").isIndexed())
            .isTrue();
        assertRefused(RangeList.class, "'tags'", "cannot have a range index", "a collection has no single value");
        assertRefused(RangeFolded.class, "'name'", "cannot have a range index", "case-insensitive index");
    }

    record RangeList(@Id String id, @Indexed(range = true) List<String> tags) {
    }

    record RangeFolded(@Id String id, @Indexed(range = true, ignoreCase = true) String name) {
    }

    @Test
    void equalityIndexesOnTheseTypesAreAccepted() {
        StorhMappingContext context = new StorhMappingContext();
        assertThat(context.getRequiredPersistentEntity(EqualityOnly.class).getRequiredPersistentProperty("key")
            .isIndexed()).isTrue();
    }

    @Test
    void aRepositoryWithARangeIndexOnAUuidFailsStartupNamingTheProperty() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(BadIndexConfig.class)
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .isInstanceOf(MappingException.class)
                .hasMessageContaining("@Indexed property 'key' of " + RangeUuid.class.getName())
                .hasMessageContaining("use @Indexed without range = true"));
    }

    @Test
    void aRangeConditionOnAUuidFailsStartupEvenWithoutIndex() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(BadQueryConfig.class)
            .run((context) -> assertThat(context).hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageContaining("findByKeyGreaterThan")
                .hasMessageContaining("property 'key' (java.util.UUID) is refused")
                .hasMessageContaining("query it by equality or In"));
    }

    private static void assertRefused(Class<?> type, String... fragments) {
        StorhMappingContext context = new StorhMappingContext();
        assertThatExceptionOfType(MappingException.class).isThrownBy(() -> context.getRequiredPersistentEntity(type))
            .satisfies((ex) -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex).getMessage()).contains(type.getName())
                .contains(fragments));
    }

    record RangeEnum(@Id String id, @Indexed(range = true) Level level) {
    }

    record RangeUuid(@Id String id, @Indexed(range = true) UUID key) {
    }

    record RangeOffset(@Id String id, @Indexed(range = true) OffsetDateTime at) {
    }

    record RangeZoned(@Id String id, @Indexed(range = true) ZonedDateTime at) {
    }

    record IndexedList(@Id String id, @Indexed List<String> tags) {
    }

    record IndexedMap(@Id String id, @Indexed Map<String, String> attributes) {
    }

    record Address(String street, String city) {
    }

    record IndexedNested(@Id String id, @Indexed Address address) {
    }

    record EqualityOnly(@Id String id, @Indexed UUID key, @Indexed Level level, @Indexed OffsetDateTime at) {
    }

    interface RangeUuidRepository extends StorhRepository<RangeUuid, String> {

    }

    record PlainUuid(@Id String id, UUID key) {
    }

    interface PlainUuidRepository extends StorhRepository<PlainUuid, String> {

        List<PlainUuid> findByKeyGreaterThan(UUID key);

    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = IndexableTypesTests.class, considerNestedRepositories = true,
            includeFilters = @ComponentScan.Filter(type = FilterType.ASSIGNABLE_TYPE, classes = RangeUuidRepository.class))
    static class BadIndexConfig {

    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = IndexableTypesTests.class, considerNestedRepositories = true,
            includeFilters = @ComponentScan.Filter(type = FilterType.ASSIGNABLE_TYPE, classes = PlainUuidRepository.class))
    static class BadQueryConfig {

    }

}

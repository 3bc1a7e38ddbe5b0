package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.storh.StorageRoot;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import dev.storh.spring.sample.cities.PersonRepository;
import dev.storh.spring.sample.notes.Note;
import dev.storh.spring.sample.notes.NoteRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.domain.Pageable;
import org.springframework.data.repository.query.QueryCreationException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhAutoConfiguration} and {@link StorhRepositoriesAutoConfiguration} in application
 * contexts on a real temporary folder.
 */
class StorhAutoConfigurationTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class));

    @Test
    void createsStorageRootMappingContextAndTemplateOnTheConfiguredRoot() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            assertThat(context).hasSingleBean(StorageRoot.class)
                .hasSingleBean(StorhMappingContext.class)
                .hasSingleBean(StorhTemplate.class)
                .hasBean("storhTemplate");
            assertThat(context.getBean(StorageRoot.class).root()).isEqualTo(this.root);
            assertThat(context.getBean(StorhOperations.class).collectionsFolder()).isEqualTo(this.root);
            assertThat(context.getBean(StorhTemplate.class).getMappingContext())
                .isSameAs(context.getBean(StorhMappingContext.class));
        });
    }

    @Test
    void defaultRootIsStorhDataInTheWorkingDirectory() {
        this.contextRunner.run((context) -> assertThat(context.getBean(StorhOperations.class).collectionsFolder())
            .isEqualTo(Path.of("storh-data").toAbsolutePath().normalize()));
    }

    @Test
    void namespaceSelectsItsSanitisedFolderBelowTheRoot() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.namespace=my app!")
            .run((context) -> assertThat(context.getBean(StorhOperations.class).collectionsFolder())
                .isEqualTo(this.root.resolve("my-app")));
    }

    @Test
    void userStorageRootIsUsedForTheTemplate() {
        Path other = this.root.resolve("other");
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withBean(StorageRoot.class, () -> StorageRoot.at(other))
            .run((context) -> {
                assertThat(context).hasSingleBean(StorageRoot.class);
                assertThat(context.getBean(StorhOperations.class).collectionsFolder()).isEqualTo(other);
            });
    }

    @Test
    void userOperationsReplaceTheTemplate() {
        Path other = this.root.resolve("mine");
        this.contextRunner.withBean("myOperations", StorhTemplate.class, () -> new StorhTemplate(other))
            .run((context) -> {
                assertThat(context).hasSingleBean(StorhOperations.class).doesNotHaveBean("storhTemplate");
                assertThat(context.getBean(StorhOperations.class).collectionsFolder()).isEqualTo(other);
            });
    }

    @Test
    void repositoriesInTheAutoConfigurationPackagesNeedNoAnnotation() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(CitiesAndNotesPackages.class)
            .run((context) -> {
                assertThat(context).hasSingleBean(CityRepository.class)
                    .hasSingleBean(PersonRepository.class)
                    .hasSingleBean(NoteRepository.class);
                City saved = context.getBean(CityRepository.class).save(City.of("Oslo", "NO", 709_000L, true));
                assertThat(this.root.resolve("cities/data").resolve(saved.id().substring(24, 26))
                    .resolve(saved.id() + ".jsonc")).isRegularFile();
                assertThat(context.getBean(CityRepository.class).findByCountry("NO", Pageable.unpaged()))
                    .containsExactly(saved);
            });
    }

    @Test
    void repositoriesCanBeSwitchedOff() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.repositories.enabled=false")
            .withUserConfiguration(CitiesAndNotesPackages.class)
            .run((context) -> assertThat(context).hasSingleBean(StorhTemplate.class)
                .doesNotHaveBean(CityRepository.class)
                .doesNotHaveBean(NoteRepository.class));
    }

    @Test
    void enableStorhRepositoriesMakesTheAutoConfigurationBackOff() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(ExplicitCitiesRepositories.class)
            .run((context) -> {
                assertThat(context).hasSingleBean(CityRepository.class);
                // the notes package is an auto-configuration package, but only the annotation counts
                assertThat(context).doesNotHaveBean(NoteRepository.class);
            });
    }

    @Test
    void storhTemplateRefSelectsTheOperationsOfTheRepositories() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(ArchiveRepositories.class)
            .run((context) -> {
                City saved = context.getBean(CityRepository.class).save(City.of("Bergen", "NO", 285_000L, true));
                Path archived = this.root.resolve("archive/cities/data").resolve(saved.id().substring(24, 26))
                    .resolve(saved.id() + ".jsonc");
                assertThat(archived).isRegularFile();
                assertThat(this.root.resolve("cities")).doesNotExist();
            });
    }

    @Test
    void unsupportedKeywordFailsApplicationStartup() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(BrokenPackage.class)
            .run((context) -> {
                assertThat(context).hasFailed();
                Throwable cause = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
                assertThat(cause).isInstanceOf(QueryCreationException.class)
                    .hasMessageContaining("BrokenCityRepository.findByNameNear(String)")
                    .hasMessageContaining("keyword NEAR")
                    .hasMessageContaining("not supported by storh");
            });
    }

    @Test
    void closingTheContextClosesTheStoresAndRemovesTheirWriterMarkers() throws Exception {
        Path writers = this.root.resolve("note/.storh/writers");
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(CitiesAndNotesPackages.class)
            .run((context) -> {
                context.getBean(NoteRepository.class).save(new Note(null, "hello"));
                assertThat(countFiles(writers)).isEqualTo(1);
            });
        assertThat(countFiles(writers)).isZero();
    }

    private static long countFiles(Path folder) throws Exception {
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = { "dev.storh.spring.sample.cities", "dev.storh.spring.sample.notes" })
    static class CitiesAndNotesPackages {

    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "dev.storh.spring.sample.notes")
    @EnableStorhRepositories(basePackageClasses = CityRepository.class)
    static class ExplicitCitiesRepositories {

    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = CityRepository.class, storhTemplateRef = "archiveTemplate")
    static class ArchiveRepositories {

        @Bean
        StorhTemplate archiveTemplate(StorageRoot storageRoot) {
            return new StorhTemplate(storageRoot.root().resolve("archive"));
        }

    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "dev.storh.spring.sample.broken")
    static class BrokenPackage {

    }

}

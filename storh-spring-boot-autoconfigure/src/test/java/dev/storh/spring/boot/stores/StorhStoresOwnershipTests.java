package dev.storh.spring.boot.stores;

import java.nio.file.Path;
import java.util.Map;

import dev.storh.doc.DocStore;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * One owner for every engine instance: the template and the repositories reach collections
 * through the application's {@link StorhStores}, and no second registry in the JVM can open a
 * store folder that one holds, whatever its options. Real contexts on real folders.
 */
class StorhStoresOwnershipTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class));

    @Test
    void templateRepositoriesAndRegistryShareOneInstancePerCollection() {
        this.contextRunner
            .withPropertyValues("storh.root=" + this.root, "storh.collections.cities.cache.max-entries=10",
                    "storh.collections.cities.indexes[0].field=coastal")
            .withUserConfiguration(CitiesPackage.class)
            .run((context) -> {
                StorhStores stores = context.getBean(StorhStores.class);
                StorhTemplate template = context.getBean(StorhTemplate.class);
                assertThat(template.getStores()).isSameAs(stores);
                City saved = context.getBean(CityRepository.class).save(City.of("Oslo", "NO", 709_000L, true));
                DocStore cities = stores.docStore("cities");
                assertThat(template.docStore("cities")).isSameAs(cities);
                assertThat(template.docStore(City.class)).isSameAs(cities);
                // the configured index and the entity's @Indexed ones sit on that one instance
                assertThat(cities.indexes().definitions()).extracting("field")
                    .contains("coastal", "country", "name", "population");
                assertThat(cities.get(saved.id())).isPresent();
                assertThat(stores.stores(StoreType.COLLECTION)).extracting(StorhStore::name).containsExactly("cities");
            });
    }

    @Test
    void aSecondRegistryCannotOpenACollectionTheApplicationHolds() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.collections.cities.cache.max-entries=10")
            .run((context) -> {
                assertThat(context.getBean(StorhStores.class).find(StoreType.COLLECTION, "cities")).isPresent();
                try (StorhTemplate other = new StorhTemplate(this.root)) {
                    assertThatIllegalStateException().isThrownBy(() -> other.save(City.of("Oslo", "NO", 1L, true)))
                        .withMessageContaining(this.root.resolve("cities").toString())
                        .withMessageContaining("already open in this JVM by another StorhStores registry");
                    // other collections of the root are free
                    assertThat(other.docStore("notes").put(Map.of("text", "hi")).id()).isNotNull();
                }
            });
        // once the application closed, the folder is free again
        try (StorhTemplate later = new StorhTemplate(this.root)) {
            assertThat(later.save(City.of("Oslo", "NO", 1L, true)).id()).isNotNull();
        }
    }

    @Test
    void twoRegistriesOnOneFolderNeverOpenTheSameStore() {
        try (StorhStores first = new StorhStores(this.root, new StorhStoreOptions() {
        }); StorhStores second = new StorhStores(this.root, new StorhStoreOptions() {
        })) {
            DocStore cities = first.docStore("cities");
            first.openQueue("jobs");
            first.openLog("events/audit");
            assertThatIllegalStateException().isThrownBy(() -> second.docStore("cities"))
                .withMessageContaining("collection 'cities'");
            assertThatIllegalStateException().isThrownBy(() -> second.queue("jobs"))
                .withMessageContaining("queue 'jobs'");
            // a folder holding an open store, or inside one, is held too
            assertThatIllegalStateException().isThrownBy(() -> second.openLog("events"))
                .withMessageContaining(this.root.resolve("events/audit").toString());
            assertThatIllegalStateException().isThrownBy(() -> second.openLog("cities/archive"))
                .withMessageContaining(this.root.resolve("cities").toString());
            // the failed opens left nothing registered and the first registry is untouched
            assertThat(second.stores()).isEmpty();
            assertThat(first.docStore("cities")).isSameAs(cities);
            first.close();
            assertThat(second.docStore("cities")).isNotSameAs(cities);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "dev.storh.spring.sample.cities")
    static class CitiesPackage {

    }

}

package dev.storh.spring.data.repository.support;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.storh.id.UuidV7;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import dev.storh.spring.sample.cities.Person;
import dev.storh.spring.sample.cities.PersonRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataRetrievalFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.core.PropertyReferenceException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * CRUD, paging, sorting and concurrency of repositories built by {@link StorhRepositoryFactory}
 * on a real {@code DocStore} in a temporary folder.
 */
class SimpleStorhRepositoryTests {

    @TempDir
    Path root;

    private StorhTemplate template;

    private CityRepository cities;

    private PersonRepository people;

    @BeforeEach
    void createRepositories() {
        this.template = new StorhTemplate(this.root);
        StorhRepositoryFactory factory = new StorhRepositoryFactory(this.template);
        this.cities = factory.getRepository(CityRepository.class);
        this.people = factory.getRepository(PersonRepository.class);
    }

    @AfterEach
    void closeTemplate() {
        this.template.close();
    }

    @Test
    void saveRecordWithoutIdGeneratesUuidV7AndWritesRecordFileInItsBucket() throws Exception {
        City saved = this.cities.save(City.of("Lyon", "FR", 522_250L, false));

        assertThat(saved.id()).isNotNull();
        assertThat(UuidV7.isValid(saved.id())).isTrue();
        assertThat(saved.name()).isEqualTo("Lyon");
        assertThat(saved.population()).isEqualTo(522_250L);
        Path expected = this.root.resolve("cities").resolve("data").resolve(saved.id().substring(24, 26))
            .resolve(saved.id() + ".jsonc");
        assertThat(this.template.docStore("cities").pathForId(saved.id())).isEqualTo(expected);
        assertThat(expected).isRegularFile();
        @SuppressWarnings("unchecked")
        Map<String, Object> envelope = JsonMapper.builder().build()
            .readValue(Files.readString(expected, StandardCharsets.UTF_8), Map.class);
        assertThat(envelope).containsEntry("id", saved.id());
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) envelope.get("data");
        // the id lives in the envelope only; the other properties in declaration order
        assertThat(data).containsOnlyKeys("name", "country", "population", "coastal");
        assertThat(new ArrayList<>(data.keySet())).containsExactly("name", "country", "population", "coastal");
        assertThat(data).containsEntry("name", "Lyon").containsEntry("country", "FR").containsEntry("coastal", false);
        assertThat(((Number) data.get("population")).longValue()).isEqualTo(522_250L);
    }

    @Test
    void recordCrudRoundTrip() {
        City lyon = this.cities.save(City.of("Lyon", "FR", 522_250L, false));

        assertThat(this.cities.findById(lyon.id())).contains(lyon);
        assertThat(this.cities.existsById(lyon.id())).isTrue();
        assertThat(this.cities.count()).isEqualTo(1);

        City updated = this.cities.save(lyon.withPopulation(530_000L));
        assertThat(updated.id()).isEqualTo(lyon.id());
        assertThat(this.cities.count()).isEqualTo(1);
        assertThat(this.cities.findById(lyon.id()).map(City::population)).contains(530_000L);

        this.cities.deleteById(lyon.id());
        assertThat(this.cities.findById(lyon.id())).isEmpty();
        assertThat(this.cities.existsById(lyon.id())).isFalse();
        assertThat(this.template.docStore("cities").pathForId(lyon.id())).doesNotExist();
        assertThat(this.cities.count()).isZero();
    }

    @Test
    void saveWithGivenIdStoresUnderThatId() {
        String id = UuidV7.generate();
        City saved = this.cities.save(new City(id, "Nice", "FR", 342_669L, true));

        assertThat(saved.id()).isEqualTo(id);
        assertThat(this.template.docStore("cities").pathForId(id)).isRegularFile();
        assertThat(this.cities.findAll()).extracting(City::id).containsExactly(id);
    }

    @Test
    void nullValuesRoundTrip() {
        City saved = this.cities.save(City.of("Atlantis", null, null, null));

        City found = this.cities.findById(saved.id()).orElseThrow();
        assertThat(found.country()).isNull();
        assertThat(found.population()).isNull();
        assertThat(found.coastal()).isNull();
        assertThat(found.name()).isEqualTo("Atlantis");
    }

    @Test
    void pojoSaveSetsIdOnTheSameInstanceAndReadsBack() {
        Person ada = new Person("Ada", "Lovelace", 36, List.of("math", "poetry"));

        Person saved = this.people.save(ada);

        assertThat(saved).isSameAs(ada);
        assertThat(UuidV7.isValid(ada.getId())).isTrue();
        // no @Document: the collection is the uncapitalised simple class name
        assertThat(this.root.resolve("person").resolve("data").resolve(ada.getId().substring(24, 26))
            .resolve(ada.getId() + ".jsonc")).isRegularFile();
        Person found = this.people.findById(ada.getId()).orElseThrow();
        assertThat(found).isNotSameAs(ada);
        assertThat(found.getId()).isEqualTo(ada.getId());
        assertThat(found.getFirstName()).isEqualTo("Ada");
        assertThat(found.getLastName()).isEqualTo("Lovelace");
        assertThat(found.getAge()).isEqualTo(36);
        assertThat(found.getTags()).containsExactly("math", "poetry");

        found.setAge(37);
        this.people.save(found);
        assertThat(this.people.count()).isEqualTo(1);
        assertThat(this.people.findById(ada.getId()).orElseThrow().getAge()).isEqualTo(37);

        this.people.delete(found);
        assertThat(this.people.existsById(ada.getId())).isFalse();
    }

    @Test
    void saveAllFindAllByIdAndDeleteAll() {
        List<City> saved = this.cities.saveAll(List.of(City.of("A", "FR", 1L, true), City.of("B", "DE", 2L, false),
                City.of("C", "IT", 3L, true)));
        String missing = UuidV7.generate();

        assertThat(this.cities.findAllById(List.of(saved.get(2).id(), missing, saved.get(0).id())))
            .extracting(City::name)
            .containsExactly("C", "A");

        this.cities.deleteAllById(List.of(saved.get(0).id(), missing));
        assertThat(this.cities.findAll()).extracting(City::name).containsExactly("B", "C");

        this.cities.deleteAll(List.of(saved.get(1)));
        assertThat(this.cities.findAll()).extracting(City::name).containsExactly("C");

        this.cities.deleteAll();
        assertThat(this.cities.count()).isZero();
        assertThat(this.cities.findAll()).isEmpty();
    }

    @Test
    void deleteOfUnsavedOrUnknownEntityIsIgnored() {
        City kept = this.cities.save(City.of("Kept", "FR", 1L, true));

        this.cities.delete(City.of("Never saved", "FR", 1L, true));
        this.cities.delete(new City(UuidV7.generate(), "Unknown", "FR", 1L, true));
        this.cities.deleteById(UuidV7.generate());

        assertThat(this.cities.findAll()).containsExactly(kept);
    }

    @Test
    void insertRefusesAnExistingId() {
        City lyon = this.template.insert(City.of("Lyon", "FR", 522_250L, false));

        assertThatExceptionOfType(DuplicateKeyException.class)
            .isThrownBy(() -> this.template.insert(lyon.withPopulation(1L)))
            .withMessageContaining(lyon.id())
            .withMessageContaining("'cities'");
        assertThat(this.cities.findById(lyon.id()).map(City::population)).contains(522_250L);
    }

    @Test
    void malformedIdNamesNoRecordButSavingWithOneIsRejectedWithTheIdAndCollectionInTheMessage() {
        City paris = this.cities.save(new City(null, "Paris", "FR", 2_102_650L, true));
        for (String malformed : List.of("not-a-uuid", "nope", "", paris.id().toUpperCase() + "x",
                "018bcfe5-6800-4286-af1e-f6f686dbda0b", "../" + paris.id())) {
            assertThat(this.cities.findById(malformed)).as(malformed).isEmpty();
            assertThat(this.cities.existsById(malformed)).as(malformed).isFalse();
            this.cities.deleteById(malformed);
        }
        assertThat(this.cities.findAllById(List.of("nope", paris.id()))).containsExactly(paris);
        this.cities.deleteAllById(List.of("nope"));
        assertThat(this.cities.findAll()).containsExactly(paris);
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> this.cities.save(new City("12345", "X", "FR", 1L, true)))
            .withMessageContaining("'12345'")
            .withMessageContaining("'cities'")
            .withMessageContaining("UUIDv7");
        assertThat(this.cities.count()).isEqualTo(1);
        assertThatIllegalArgumentException().isThrownBy(() -> this.cities.findById(null));
        assertThatIllegalArgumentException().isThrownBy(() -> this.cities.save(null));
    }

    @Test
    void findAllReturnsIdOrder() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(this.cities.save(City.of("City " + i, "FR", (long) i, true)).id());
        }
        Collections.sort(ids);

        assertThat(this.cities.findAll()).extracting(City::id).containsExactlyElementsOf(ids);
    }

    @Test
    void unsortedPageCutsTheIdListing() {
        List<String> ids = saveTenCities();

        Page<City> page = this.cities.findAll(PageRequest.of(1, 3));

        assertThat(page.getContent()).extracting(City::id).containsExactlyElementsOf(ids.subList(3, 6));
        assertThat(page.getTotalElements()).isEqualTo(10);
        assertThat(page.getTotalPages()).isEqualTo(4);
        assertThat(page.getNumber()).isEqualTo(1);
        assertThat(this.cities.findAll(PageRequest.of(3, 3)).getContent()).extracting(City::id)
            .containsExactly(ids.get(9));
        assertThat(this.cities.findAll(PageRequest.of(4, 3)).getContent()).isEmpty();
        assertThat(this.cities.findAll(Pageable.unpaged()).getContent()).extracting(City::id)
            .containsExactlyElementsOf(ids);
    }

    @Test
    void unsortedPageDoesNotReadTheRecordsItSkips() throws Exception {
        List<String> ids = saveTenCities();
        // break a record of page 0: only a reader of that file can notice
        Files.writeString(this.template.docStore("cities").pathForId(ids.get(1)), "{ this is not json",
                StandardCharsets.UTF_8);

        Page<City> second = this.cities.findAll(PageRequest.of(1, 3));

        assertThat(second.getContent()).extracting(City::id).containsExactlyElementsOf(ids.subList(3, 6));
        assertThatExceptionOfType(DataRetrievalFailureException.class)
            .isThrownBy(() -> this.cities.findAll(PageRequest.of(0, 3)));
    }

    @Test
    void sortByPropertyFollowsCoreOrderThenOrdersById() {
        City paris = this.cities.save(City.of("Paris", "FR", 2_100_000L, false));
        City berlin = this.cities.save(City.of("Berlin", "DE", 3_600_000L, false));
        City nowhere = this.cities.save(City.of("Nowhere", null, null, null));
        City lyon = this.cities.save(City.of("Lyon", "FR", 520_000L, false));
        City rome = this.cities.save(City.of("Rome", "IT", 2_800_000L, true));

        // core's compare puts null after numbers and strings: last ascending, first descending
        assertThat(this.cities.findAll(Sort.by("population").descending())).containsExactly(nowhere, berlin, rome,
                paris, lyon);
        assertThat(this.cities.findAll(Sort.by("population"))).containsExactly(lyon, paris, rome, berlin, nowhere);
        // equal countries keep id (creation) order in both directions
        assertThat(this.cities.findAll(Sort.by("country"))).containsExactly(berlin, paris, lyon, rome, nowhere);
        assertThat(this.cities.findAll(Sort.by(Sort.Order.desc("country")))).containsExactly(nowhere, rome, paris,
                lyon, berlin);
        // explicit null handling cannot be honoured by core's order: refused, naming the property
        assertThatExceptionOfType(org.springframework.dao.InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> this.cities.findAll(Sort.by(Sort.Order.asc("country").nullsFirst(), Sort.Order.desc("name"))))
            .withMessageContaining("country");
    }

    @Test
    void sortedPageSortsBeforeCutting() {
        saveTenCities();

        Page<City> page = this.cities.findAll(PageRequest.of(1, 4, Sort.by("population").descending()));

        assertThat(page.getContent()).extracting(City::population).containsExactly(5L, 4L, 3L, 2L);
        assertThat(page.getTotalElements()).isEqualTo(10);
    }

    @Test
    void sortByUnknownPropertyNamesIt() {
        assertThatExceptionOfType(PropertyReferenceException.class)
            .isThrownBy(() -> this.cities.findAll(Sort.by("altitude")))
            .withMessageContaining("altitude");
    }

    @Test
    void sixteenThreadsSavingAndReadingThroughOneRepositorySeeEveryWrite() throws Exception {
        int threads = 16;
        int perThread = 25;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        Set<String> written = ConcurrentHashMap.newKeySet();
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(executor.submit(() -> {
                    start.await();
                    int verified = 0;
                    for (int i = 0; i < perThread; i++) {
                        City saved = this.cities.save(City.of("T" + thread + "-" + i, "C" + thread,
                                (long) (thread * 1000 + i), i % 2 == 0));
                        written.add(saved.id());
                        City read = this.cities.findById(saved.id()).orElseThrow();
                        assertThat(read).isEqualTo(saved);
                        verified++;
                    }
                    return verified;
                }));
            }
            start.countDown();
            for (Future<Integer> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(perThread);
            }
        }
        finally {
            executor.shutdownNow();
        }

        assertThat(written).hasSize(threads * perThread);
        assertThat(this.cities.count()).isEqualTo(threads * perThread);
        List<City> all = this.cities.findAll();
        assertThat(all).extracting(City::id).containsExactlyInAnyOrderElementsOf(written);
        for (int t = 0; t < threads; t++) {
            long thread = t;
            assertThat(this.cities.findByCountry("C" + t, Pageable.unpaged()).getContent()).hasSize(perThread)
                .extracting(City::population)
                .allSatisfy((population) -> assertThat(population / 1000).isEqualTo(thread));
        }
        assertThat(all).extracting(City::population).doesNotHaveDuplicates();
    }

    /**
     * @return the ids in ascending order; city i has population i and name "City i"
     */
    private List<String> saveTenCities() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(this.cities.save(City.of("City " + i, (i % 2 == 0) ? "FR" : "DE", (long) i, i % 3 == 0)).id());
        }
        List<String> sorted = new ArrayList<>(ids);
        Collections.sort(sorted);
        assertThat(sorted).isEqualTo(ids);
        return ids;
    }

}

package dev.storh.spring.data.repository.query;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import dev.storh.spring.sample.cities.Person;
import dev.storh.spring.sample.cities.PersonRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.data.annotation.Id;
import org.springframework.data.domain.Limit;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Window;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;
import org.springframework.data.mapping.MappingException;
import org.springframework.data.repository.core.RepositoryCreationException;
import org.springframework.data.repository.query.QueryCreationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Derived queries, evaluated on a real collection in a temporary folder.
 */
class StorhPartTreeQueryTests {

    @TempDir
    Path root;

    private StorhTemplate template;

    private StorhRepositoryFactory factory;

    private CityRepository cities;

    private City paris;

    private City lyon;

    private City nice;

    private City marseille;

    private City berlin;

    private City hamburg;

    private City rome;

    private City nowhere;

    @BeforeEach
    void saveCities() {
        this.template = new StorhTemplate(this.root);
        this.factory = new StorhRepositoryFactory(this.template);
        this.cities = this.factory.getRepository(CityRepository.class);
        // saved in this order, so ascending id order is this order
        this.paris = this.cities.save(City.of("Paris", "FR", 2_100_000L, false));
        this.lyon = this.cities.save(City.of("Lyon", "FR", 520_000L, false));
        this.nice = this.cities.save(City.of("Nice", "FR", 340_000L, true));
        this.marseille = this.cities.save(City.of("Marseille", "FR", 870_000L, true));
        this.berlin = this.cities.save(City.of("Berlin", "DE", 3_600_000L, false));
        this.hamburg = this.cities.save(City.of("Hamburg", "DE", 1_800_000L, true));
        this.rome = this.cities.save(City.of("Rome", "IT", 2_800_000L, true));
        this.nowhere = this.cities.save(City.of("Nowhere", null, null, null));
    }

    @AfterEach
    void closeTemplate() {
        this.template.close();
    }

    @Test
    void findByCountryWithPageable() {
        Page<City> first = this.cities.findByCountry("FR", PageRequest.of(0, 2));
        Page<City> second = this.cities.findByCountry("FR", PageRequest.of(1, 2));
        Page<City> byPopulation = this.cities.findByCountry("FR", PageRequest.of(0, 3, Sort.by("population")));

        assertThat(first.getContent()).containsExactly(this.paris, this.lyon);
        assertThat(first.getTotalElements()).isEqualTo(4);
        assertThat(first.getTotalPages()).isEqualTo(2);
        assertThat(second.getContent()).containsExactly(this.nice, this.marseille);
        assertThat(second.hasNext()).isFalse();
        assertThat(byPopulation.getContent()).containsExactly(this.nice, this.lyon, this.marseille);
        assertThat(byPopulation.getTotalElements()).isEqualTo(4);
    }

    @Test
    void findByCountryWithSortAndWithLimit() {
        assertThat(this.cities.findByCountry("FR", Sort.by("population").descending())).containsExactly(this.paris,
                this.marseille, this.lyon, this.nice);
        assertThat(this.cities.findByCountry("FR", Limit.of(2))).containsExactly(this.paris, this.lyon);
    }

    @Test
    void countAndExistsProjections() {
        assertThat(this.cities.countByCountry("FR")).isEqualTo(4);
        assertThat(this.cities.countByCountry("DE")).isEqualTo(2);
        assertThat(this.cities.countByCountry("ES")).isZero();
        assertThat(this.cities.countByCoastalTrue()).isEqualTo(4);
        assertThat(this.cities.existsByCountry("IT")).isTrue();
        assertThat(this.cities.existsByCountry("ES")).isFalse();
    }

    @Test
    void rangeKeywordsCompareNumbersByValue() {
        assertThat(this.cities.findByPopulationGreaterThan(1_800_000)).containsExactly(this.paris, this.berlin,
                this.rome);
        assertThat(this.cities.findByPopulationGreaterThanEqual(1_800_000)).containsExactly(this.paris, this.berlin,
                this.hamburg, this.rome);
        assertThat(this.cities.findByPopulationLessThan(520_000)).containsExactly(this.nice);
        // a double argument against stored integers
        assertThat(this.cities.findByPopulationLessThanEqual(520_000.0)).containsExactly(this.lyon, this.nice);
        assertThat(this.cities.findByPopulationBetween(520_000, 870_000)).containsExactly(this.lyon, this.marseille);
    }

    @Test
    void inNotInAndNot() {
        assertThat(this.cities.findByCountryIn(List.of("DE", "IT"))).containsExactly(this.berlin, this.hamburg,
                this.rome);
        assertThat(this.cities.findByCountryNotIn("FR", "DE")).containsExactly(this.rome, this.nowhere);
        assertThat(this.cities.findByCountryNot("FR")).containsExactly(this.berlin, this.hamburg, this.rome,
                this.nowhere);
        assertThat(this.cities.findByIdIn(List.of(this.rome.id(), this.paris.id()))).containsExactly(this.paris,
                this.rome);
    }

    @Test
    void startingWithIsCaseSensitive() {
        assertThat(this.cities.findByNameStartingWith("Ma")).containsExactly(this.marseille);
        assertThat(this.cities.findByNameStartingWith("ma")).isEmpty();
        assertThat(this.cities.findByNameStartingWith("N")).containsExactly(this.nice, this.nowhere);
    }

    @Test
    void isEqualsAndNoKeywordAreStrictEquality() {
        assertThat(this.cities.findByCountryIs("DE")).containsExactly(this.berlin, this.hamburg);
        assertThat(this.cities.findByCountryEquals("IT")).containsExactly(this.rome);
        assertThat(this.cities.findByCountryIs("de")).isEmpty();
        // a null argument means IsNull: missing or JSON null
        assertThat(this.cities.findByCountryIs(null)).containsExactly(this.nowhere);
    }

    @Test
    void intArgumentsMatchStoredLongsButNotDoubles() {
        PersonRepository people = this.factory.getRepository(PersonRepository.class);
        Person ada = people.save(new Person("Ada", "Lovelace", 36, List.of()));
        // int 36 is converted like the entity's int field: both Long 36 in the JSON model
        assertThat(people.findByAge(36)).extracting(Person::getId).containsExactly(ada.getId());
        // core equality is type-sensitive: 36.0 is not 36
        assertThat(people.findByAge(36.0)).isEmpty();
    }

    @Test
    void afterAndBeforeAreGreaterThanAndLessThan() {
        assertThat(this.cities.findByPopulationAfter(2_800_000)).containsExactly(this.berlin);
        assertThat(this.cities.findByPopulationBefore(520_000)).containsExactly(this.nice);
    }

    @Test
    void greaterThanNeverMatchesAStoredNull() {
        // core orders null after numbers; the derived query excludes it (nowhere has a null population)
        assertThat(this.cities.findByPopulationGreaterThan(0)).hasSize(7).doesNotContain(this.nowhere);
        assertThat(this.cities.findByPopulationGreaterThanEqual(0)).hasSize(7).doesNotContain(this.nowhere);
    }

    @Test
    void windowScrollsByKeysetOnTheIdCursor() {
        Window<City> first = this.cities.findByCountry("FR", ScrollPosition.keyset(), Limit.of(3));
        assertThat(first.getContent()).containsExactly(this.paris, this.lyon, this.nice);
        assertThat(first.hasNext()).isTrue();
        assertThat(first.positionAt(2)).isEqualTo(ScrollPosition.forward(Map.of("id", this.nice.id())));

        Window<City> second = this.cities.findByCountry("FR", first.positionAt(first.size() - 1), Limit.of(3));
        assertThat(second.getContent()).containsExactly(this.marseille);
        assertThat(second.hasNext()).isFalse();

        // a record created after the first window is seen by the next one (keyset, not offset)
        City toulouse = this.cities.save(City.of("Toulouse", "FR", 500_000L, false));
        Window<City> third = this.cities.findByCountry("FR", first.positionAt(2), Limit.of(3));
        assertThat(third.getContent()).containsExactly(this.marseille, toulouse);

        Window<City> top = this.cities.findFirst2ByCoastalTrue(ScrollPosition.keyset());
        assertThat(top.getContent()).containsExactly(this.nice, this.marseille);
        assertThat(this.cities.findFirst2ByCoastalTrue(top.positionAt(1)).getContent()).containsExactly(this.hamburg,
                this.rome);
        // backwards from Marseille: the two before it, in id order, and Paris still before them
        Window<City> back = this.cities.findByCountry("FR", ScrollPosition.backward(Map.of("id", this.marseille.id())),
                Limit.of(2));
        assertThat(back.getContent()).containsExactly(this.lyon, this.nice);
        assertThat(back.hasNext()).isTrue();
    }

    @Test
    void windowScrollsByOffset() {
        Window<City> first = this.cities.findByCountry("FR", ScrollPosition.offset(), Limit.of(3));
        assertThat(first.getContent()).containsExactly(this.paris, this.lyon, this.nice);
        assertThat(first.hasNext()).isTrue();
        Window<City> second = this.cities.findByCountry("FR", first.positionAt(2), Limit.of(3));
        assertThat(second.getContent()).containsExactly(this.marseille);
        assertThat(second.hasNext()).isFalse();
    }

    @Test
    void derivedQueriesOnIndexedPropertiesAreServedFromIndexes() {
        // City: country @Indexed, name and population @Indexed(range = true); coastal not indexed
        assertThat(plan("findByCountry", "FR", PageRequest.of(0, 2))).isEqualTo("index_scan");
        assertThat(plan("countByCountry", "FR")).isEqualTo("index_scan");
        assertThat(plan("findByCountryIn", List.of("FR", "IT"))).isEqualTo("index_scan");
        assertThat(plan("findByPopulationGreaterThan", 1L)).isEqualTo("index_scan");
        assertThat(plan("findByPopulationLessThan", 1L)).isEqualTo("index_scan");
        assertThat(plan("findByPopulationBetween", 1L, 2L)).isEqualTo("index_scan");
        assertThat(plan("findByNameStartingWith", "Ma")).isEqualTo("index_scan");
        assertThat(plan("findTop3ByCountryOrderByNameAsc", "FR", PageRequest.of(0, 3))).isEqualTo("index_scan");
        assertThat(plan("findByCountryAndPopulationGreaterThan", "FR", 1L)).isEqualTo("index_scan");
        assertThat(plan("findByCountryOrPopulationLessThan", "FR", 1L)).isEqualTo("index_scan");
        // not indexed, or not answerable by an index: a scan, with the same answers
        assertThat(plan("findByCoastalTrue")).isEqualTo("full_scan");
        assertThat(plan("findByCountryNot", "FR")).isEqualTo("full_scan");
        assertThat(plan("findByCountryIsNull")).isEqualTo("full_scan");
    }

    private String plan(String method, Object... arguments) {
        return this.factory.explain(CityRepository.class, method, arguments).plan();
    }

    @Test
    void nullAndBooleanKeywords() {
        assertThat(this.cities.findByCountryIsNull()).containsExactly(this.nowhere);
        assertThat(this.cities.findByCountryIsNotNull()).hasSize(7).doesNotContain(this.nowhere);
        assertThat(this.cities.findByCoastalTrue()).containsExactly(this.nice, this.marseille, this.hamburg,
                this.rome);
        // a missing value is neither true nor false
        assertThat(this.cities.findByCoastalFalse()).containsExactly(this.paris, this.lyon, this.berlin);
    }

    @Test
    void andOrCombinations() {
        assertThat(this.cities.findByCountryAndPopulationGreaterThan("FR", 800_000)).containsExactly(this.paris,
                this.marseille);
        assertThat(this.cities.findByCountryOrPopulationLessThan("IT", 400_000)).containsExactly(this.nice,
                this.rome);
    }

    @Test
    void topFirstAndSingleResults() {
        // core's order puts JSON null after every number (spec §11), so first when descending
        assertThat(this.cities.findTop2ByOrderByPopulationDesc()).containsExactly(this.nowhere, this.berlin);
        // Top3 by name is Lyon, Marseille, Nice; page 1 of size 2 holds what is left of it
        assertThat(this.cities.findTop3ByCountryOrderByNameAsc("FR", PageRequest.of(1, 2))).containsExactly(this.nice);
        assertThat(this.cities.findFirstByCountryOrderByPopulationDesc("FR")).contains(this.paris);
        assertThat(this.cities.findFirstByCountryOrderByPopulationDesc("ES")).isEmpty();
        assertThat(this.cities.findByName("Rome")).contains(this.rome);
        assertThat(this.cities.findByName("Madrid")).isEmpty();
        assertThat(this.cities.findOneByCountry("IT")).isEqualTo(this.rome);
        assertThat(this.cities.findOneByCountry("ES")).isNull();
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> this.cities.findOneByCountry("FR"))
            .withMessageContaining("findOneByCountry");
    }

    @Test
    void streamAndSlice() {
        try (Stream<City> german = this.cities.streamByCountryOrderByName("DE")) {
            assertThat(german).containsExactly(this.berlin, this.hamburg);
        }
        Slice<City> first = this.cities.findSliceByCountryOrderByName("FR", PageRequest.of(0, 3));
        Slice<City> second = this.cities.findSliceByCountryOrderByName("FR", PageRequest.of(1, 3));

        assertThat(first.getContent()).containsExactly(this.lyon, this.marseille, this.nice);
        assertThat(first.hasNext()).isTrue();
        assertThat(second.getContent()).containsExactly(this.paris);
        assertThat(second.hasNext()).isFalse();
    }

    @Test
    void deleteProjections() {
        assertThat(this.cities.deleteByCountry("DE")).isEqualTo(2);
        assertThat(this.cities.existsByCountry("DE")).isFalse();
        assertThat(this.template.docStore("cities").pathForId(this.berlin.id())).doesNotExist();
        assertThat(this.cities.count()).isEqualTo(6);

        assertThat(this.cities.removeByCoastalFalse()).containsExactly(this.paris, this.lyon);
        assertThat(this.cities.count()).isEqualTo(4);

        this.cities.deleteByName("Rome");
        assertThat(this.cities.findAll()).containsExactly(this.nice, this.marseille, this.nowhere);
    }

    @Test
    void pojoDerivedQueries() {
        PersonRepository people = this.factory.getRepository(PersonRepository.class);
        Person ada = people.save(new Person("Ada", "Lovelace", 36, List.of()));
        Person byron = people.save(new Person("Byron", "Lovelace", 15, List.of()));
        Person alan = people.save(new Person("Alan", "Turing", 41, List.of()));

        assertThat(people.findByLastNameOrderByFirstName("Lovelace")).extracting(Person::getId)
            .containsExactly(ada.getId(), byron.getId());
        assertThat(people.findByAgeGreaterThanEqual(36)).extracting(Person::getFirstName).containsExactly("Ada",
                "Alan");
        assertThat(alan.getId()).isNotNull();
    }

    @Test
    void unsupportedKeywordFailsWhenTheRepositoryIsCreated() {
        assertThatExceptionOfType(QueryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(WithinRepository.class))
            .withMessageContaining("findByNameWithin")
            .withMessageContaining("WITHIN")
            .withMessageContaining("not supported by storh");
        assertThatExceptionOfType(QueryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(NearRepository.class))
            .withMessageContaining("findByNameNear")
            .withMessageContaining("NEAR");
    }

    @Test
    void queryMethodsStorhCannotAnswerExactlyFailWhenTheRepositoryIsCreated() {
        assertThatExceptionOfType(QueryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(IgnoreCaseRepository.class))
            .withMessageContaining("findByNameGreaterThanIgnoreCase")
            .withMessageContaining("IgnoreCase on property 'name' with keyword GREATER_THAN is not supported");
        // a Window on another order than the id is answered (keyset on name, then id)
        assertThat(this.factory.getRepository(WindowOrderedByNameRepository.class)
            .findByCountryOrderByName("FR", ScrollPosition.keyset())
            .getContent()).containsExactly(this.lyon, this.marseille, this.nice, this.paris);
    }

    @Test
    void badQueryMethodsFailWhenTheRepositoryIsCreated() {
        assertThatExceptionOfType(QueryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(IgnoreCaseOnNumberRepository.class))
            .withMessageContaining("findByPopulationIgnoreCase")
            .withMessageContaining("IgnoreCase on property 'population'");
        assertThatExceptionOfType(QueryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(MissingArgumentRepository.class))
            .withMessageContaining("findByCountryAndName")
            .withMessageContaining("needs 2 argument(s) but the method declares 1");
        assertThatExceptionOfType(QueryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(UnknownPropertyRepository.class))
            .withMessageContaining("findByAltitude")
            .withMessageContaining("altitude");
    }

    @Test
    void repositoryOfEntityWithoutStringIdFailsWithTheTypeNamed() {
        assertThatExceptionOfType(RepositoryCreationException.class)
            .isThrownBy(() -> this.factory.getRepository(LongIdRepository.class))
            .withMessageContaining("java.lang.Long");
        assertThatExceptionOfType(MappingException.class)
            .isThrownBy(() -> this.factory.getRepository(NoIdRepository.class))
            .withMessageContaining(NoId.class.getName())
            .withMessageContaining("no id property");
        assertThatExceptionOfType(MappingException.class)
            .isThrownBy(() -> this.factory.getRepository(LongIdEntityRepository.class))
            .withMessageContaining(LongId.class.getName())
            .withMessageContaining("java.lang.Long");
    }

    interface IgnoreCaseRepository extends StorhRepository<City, String> {

        List<City> findByNameGreaterThanIgnoreCase(String name);

    }

    interface WindowOrderedByNameRepository extends StorhRepository<City, String> {

        Window<City> findByCountryOrderByName(String country, ScrollPosition position);

    }

    interface WithinRepository extends StorhRepository<City, String> {

        List<City> findByNameWithin(String name);

    }

    interface NearRepository extends StorhRepository<City, String> {

        List<City> findByNameNear(String name);

    }

    interface IgnoreCaseOnNumberRepository extends StorhRepository<City, String> {

        List<City> findByPopulationIgnoreCase(Long population);

    }

    interface MissingArgumentRepository extends StorhRepository<City, String> {

        List<City> findByCountryAndName(String country);

    }

    interface UnknownPropertyRepository extends StorhRepository<City, String> {

        List<City> findByAltitude(long altitude);

    }

    record NoId(String name) {
    }

    record LongId(@Id Long id, String name) {
    }

    interface LongIdRepository extends StorhRepository<City, Long> {

    }

    interface NoIdRepository extends StorhRepository<NoId, String> {

    }

    interface LongIdEntityRepository extends StorhRepository<LongId, String> {

    }

}

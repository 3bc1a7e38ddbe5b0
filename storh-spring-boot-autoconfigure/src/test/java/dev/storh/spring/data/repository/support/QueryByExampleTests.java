package dev.storh.spring.data.repository.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.file.Path;
import java.util.List;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.dao.IncorrectResultSizeDataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Example;
import org.springframework.data.domain.ExampleMatcher;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;

/** Query by Example on real files, answered by the same planner as derived queries. */
class QueryByExampleTests {

    @TempDir
    Path root;

    private StorhTemplate template;

    private CityRepository cities;

    private City paris;

    private City lyon;

    private City berlin;

    private City rome;

    @BeforeEach
    void createRepository() {
        this.template = new StorhTemplate(this.root);
        this.cities = new StorhRepositoryFactory(this.template).getRepository(CityRepository.class);
        this.paris = this.cities.save(City.of("Paris", "FR", 2_100_000L, false));
        this.lyon = this.cities.save(City.of("Lyon", "FR", 520_000L, false));
        this.berlin = this.cities.save(City.of("Berlin", "DE", 3_600_000L, false));
        this.rome = this.cities.save(City.of("Rome", "IT", 2_800_000L, true));
    }

    @AfterEach
    void close() {
        this.template.close();
    }

    @Test
    void nullPropertiesAreIgnoredAndTheRestMustAllMatch() {
        assertThat(this.cities.findAll(Example.of(new City(null, null, "FR", null, null)))).containsExactly(this.paris,
                this.lyon);
        assertThat(this.cities.findAll(Example.of(new City(null, null, "FR", null, false)))).containsExactly(this.paris,
                this.lyon);
        assertThat(this.cities.findAll(Example.of(new City(null, "Lyon", "FR", null, null)))).containsExactly(this.lyon);
        assertThat(this.cities.count(Example.of(new City(null, null, "FR", null, true)))).isZero();
        assertThat(this.cities.exists(Example.of(new City(null, null, "IT", null, null)))).isTrue();
        assertThat(this.cities.findOne(Example.of(new City(null, null, "DE", null, null)))).contains(this.berlin);
        assertThat(this.cities.findAll(Example.of(new City(null, null, null, null, null)))).hasSize(4);
    }

    @Test
    void anyMatchingStartingStringsSortingAndPaging() {
        ExampleMatcher any = ExampleMatcher.matchingAny();
        assertThat(this.cities.findAll(Example.of(new City(null, "Rome", "DE", null, null), any)))
            .containsExactlyInAnyOrder(this.rome, this.berlin);
        ExampleMatcher starting = ExampleMatcher.matching().withStringMatcher(ExampleMatcher.StringMatcher.STARTING);
        assertThat(this.cities.findAll(Example.of(new City(null, "L", null, null, null), starting)))
            .containsExactly(this.lyon);
        List<City> byPopulation = this.cities.findAll(Example.of(new City(null, null, "FR", null, null)),
                Sort.by("population"));
        assertThat(byPopulation).containsExactly(this.lyon, this.paris);
        Page<City> page = this.cities.findAll(Example.of(new City(null, null, null, null, false)),
                PageRequest.of(1, 2, Sort.by("name")));
        assertThat(page.getContent()).containsExactly(this.paris);
        assertThat(page.getTotalElements()).isEqualTo(3);
        ExampleMatcher ignoringCountry = ExampleMatcher.matching().withIgnorePaths("country");
        assertThat(this.cities.findAll(Example.of(new City(null, "Rome", "XX", null, null), ignoringCountry)))
            .containsExactly(this.rome);
    }

    @Test
    void nullHandlingIncludeRequiresNullOrMissing() {
        City nowhere = this.cities.save(City.of("Nowhere", null, null, null));
        ExampleMatcher include = ExampleMatcher.matching().withIncludeNullValues().withIgnorePaths("name");
        assertThat(this.cities.findAll(Example.of(new City(null, null, null, null, null), include)))
            .containsExactly(nowhere);
    }

    @Test
    void fluentQueries() {
        Example<City> french = Example.of(new City(null, null, "FR", null, null));
        City first = this.cities.findBy(french, (q) -> q.sortBy(Sort.by("name")).firstValue());
        assertThat(first).isEqualTo(this.lyon);
        List<City> limited = this.cities.findBy(french, (q) -> q.limit(1).all());
        assertThat(limited).hasSize(1);
        Long streamed = this.cities.findBy(french, (q) -> q.stream().count());
        assertThat(streamed).isEqualTo(2L);
        List<Object> asObjects = this.cities.findBy(french, (q) -> q.as(Object.class).all());
        assertThat(asObjects).hasSize(2);
        assertThatExceptionOfType(IncorrectResultSizeDataAccessException.class)
            .isThrownBy(() -> this.cities.findBy(french, (q) -> q.oneValue()));
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> this.cities.findBy(french, (q) -> q.as(String.class).all()))
            .withMessageContaining("projections");
    }

    @Test
    void stringMatchersAndIgnoreCaseAreAnsweredByReadingRecords() {
        ExampleMatcher containing = ExampleMatcher.matching()
            .withStringMatcher(ExampleMatcher.StringMatcher.CONTAINING);
        assertThat(this.cities.findAll(Example.of(new City(null, "r", null, null, null), containing)))
            .containsExactly(this.paris, this.berlin);
        ExampleMatcher ending = ExampleMatcher.matching().withStringMatcher(ExampleMatcher.StringMatcher.ENDING);
        assertThat(this.cities.findAll(Example.of(new City(null, "on", null, null, null), ending)))
            .containsExactly(this.lyon);
        ExampleMatcher regex = ExampleMatcher.matching().withStringMatcher(ExampleMatcher.StringMatcher.REGEX);
        assertThat(this.cities.findAll(Example.of(new City(null, "^[PR]", null, null, null), regex)))
            .containsExactly(this.paris, this.rome);
        ExampleMatcher ignoreCase = ExampleMatcher.matching().withIgnoreCase();
        assertThat(this.cities.findAll(Example.of(new City(null, "PARIS", "fr", null, null), ignoreCase)))
            .containsExactly(this.paris);
        ExampleMatcher startingIgnoringCase = ExampleMatcher.matching()
            .withMatcher("name", (m) -> m.startsWith().ignoreCase());
        assertThat(this.cities.findAll(Example.of(new City(null, "bER", null, null, null), startingIgnoringCase)))
            .containsExactly(this.berlin);
        assertThat(this.cities.findAll(Example.of(new City(null, "ber", null, null, null)))).isEmpty();
    }

}

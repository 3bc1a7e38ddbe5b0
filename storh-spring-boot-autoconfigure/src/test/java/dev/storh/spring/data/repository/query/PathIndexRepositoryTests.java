package dev.storh.spring.data.repository.query;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.storh.doc.index.PathIndexDefinition;
import dev.storh.query.FieldPath;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.sample.catalog.Title;
import dev.storh.spring.sample.catalog.TitleRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Example;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Path indexes declared by {@code @Indexed} on nested properties, lists and with
 * {@code ignoreCase}, on a real application context writing real files: derived queries on
 * {@code publisher.name}, list elements and {@code reviews.rating} are answered from them; a unique
 * index lets any number of entities leave the value unset; a sorted page of a range-indexed first
 * sort key is served without reading the rest of the collection (a corrupt record outside the page
 * is never read).
 */
class PathIndexRepositoryTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class))
        .withUserConfiguration(CatalogPackage.class);

    private record Catalog(Title dune, Title emma, Title ubik, Title solaris) {
    }

    private static Catalog catalog(TitleRepository titles) {
        return new Catalog(titles.save(Title.of("Dune", "Frank Herbert", "111", 1965, "Chilton", List.of("scifi", "rare"), 5L, 4L)),
                titles.save(Title.of("Emma", "Jane Austen", null, 1815, "Murray", List.of("classic"), 3L)),
                titles.save(Title.of("Ubik", "Philip K. Dick", null, 1969, "Doubleday", List.of("scifi"), 2L, 5L)),
                titles.save(Title.of("Solaris", "Stanisław Lem", "333", 1961, "Chilton", List.of("RARE"))));
    }

    @Test
    void derivedQueriesOnNestedPathsListsAndCaseAreAnsweredFromPathIndexes() {
        run((titles, operations) -> {
            Catalog c = catalog(titles);
            assertThat(titles.findByPublisherName("Chilton")).containsExactly(c.dune(), c.solaris());
            assertThat(titles.findByPublisher_Name("Chilton")).containsExactly(c.dune(), c.solaris());
            assertThat(titles.findByPublisherNameOrderByYearDesc("Chilton")).containsExactly(c.dune(), c.solaris());
            assertThat(titles.findByTags("rare")).containsExactly(c.dune());
            assertThat(titles.findByTagsContaining("scifi")).containsExactly(c.dune(), c.ubik());
            assertThat(titles.findByReviewsRating(5L)).containsExactly(c.dune(), c.ubik());
            assertThat(titles.findByReviewsRatingGreaterThanEqual(4L)).containsExactly(c.dune(), c.ubik());
            assertThat(titles.findByAuthorIgnoreCase("JANE AUSTEN")).containsExactly(c.emma());
            assertThat(titles.findByAuthorStartingWithIgnoreCase("phil")).containsExactly(c.ubik());
            assertThat(titles.findByAuthorStartingWithIgnoreCase("STANISŁAW")).containsExactly(c.solaris());
            Page<Title> page = titles.findByPublisherName("Chilton", PageRequest.of(0, 1, Sort.by("year")));
            assertThat(page.getContent()).containsExactly(c.solaris());
            assertThat(page.getTotalElements()).isEqualTo(2);
            Title probe = new Title(null, null, null, null, null, new Title.Publisher("Chilton", null), null, null);
            assertThat(titles.findAll(Example.of(probe))).containsExactlyInAnyOrder(c.dune(), c.solaris());

            for (StorhCriteria indexed : List.of(StorhCriteria.where(FieldPath.of("publisher", "name")).is("Chilton"),
                    StorhCriteria.where("tags").hasElement("rare"),
                    StorhCriteria.where(FieldPath.of("reviews", "rating")).greaterThan(3L),
                    StorhCriteria.where("author").ignoreCase().startsWith("ph"),
                    StorhCriteria.where("author").ignoreCase().is("jane austen"))) {
                assertThat(operations.explain(StorhQuery.where(indexed), Title.class).usesIndexes()).as("%s", indexed)
                    .isTrue();
            }
            List<PathIndexDefinition> declared = operations.docStore(Title.class).indexes().pathDefinitions();
            assertThat(declared).extracting((d) -> d.path() + (d.unique() ? " unique" : "") + (d.ignoreCase() ? " folded" : ""))
                .containsExactlyInAnyOrder("author folded", "isbn unique", "publisher.name", "reviews.rating", "tags");
            assertThat(operations.docStore(Title.class).verify().errors()).isEmpty();
        });
    }

    @Test
    void aUniqueIndexLetsAnyNumberOfEntitiesLeaveTheValueUnset() {
        run((titles, operations) -> {
            catalog(titles);
            titles.save(Title.of("Anon", "Nobody", null, 2000, "Self", List.of()));
            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> titles.save(Title.of("Copy", "Someone", "111", 2001, "Self", List.of())))
                .withMessageContaining("isbn");
            assertThat(titles.count()).isEqualTo(5);
            assertThat(operations.docStore(Title.class).indexes().definition("isbn")).get()
                .extracting((d) -> d.unique()).as("the original sees a unique index (no compound buckets pair it)")
                .isEqualTo(true);
        });
    }

    @Test
    void aSortedPageOfARangeIndexedFirstKeyReadsOnlyThePage() throws IOException {
        run((titles, operations) -> {
            List<Title> all = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                all.add(titles.save(Title.of("T" + (char) ('a' + i % 26) + i, "A", null, 1900 + i % 7, "P", List.of())));
            }
            // A record of a year no page below reaches (nor ties with its last entry): a full read fails on it.
            Title unread = all.stream().filter((t) -> t.year() == 1904).findFirst().orElseThrow();
            Comparator<Title> byYearThenNameDesc = Comparator.comparing(Title::year)
                .thenComparing(Title::name, Comparator.reverseOrder()).thenComparing(Title::id);
            List<Title> expected = all.stream().sorted(byYearThenNameDesc).toList();
            Comparator<Title> byYearDescThenName = Comparator.comparing(Title::year, Comparator.reverseOrder())
                .thenComparing(Title::name).thenComparing(Title::id);
            List<Title> expectedDesc = all.stream().sorted(byYearDescThenName).toList();
            corrupt(unread.id());

            Page<Title> first = titles.findAll(PageRequest.of(0, 5, Sort.by("year")));
            assertThat(first.getContent()).extracting(Title::year).containsOnly(1900L);
            assertThat(first.getTotalElements()).isEqualTo(60);
            Page<Title> third = titles.findAll(PageRequest.of(2, 10, Sort.by("year").and(Sort.by(Sort.Direction.DESC, "name"))));
            assertThat(third.getContent()).isEqualTo(expected.subList(20, 30));
            Page<Title> desc = titles.findAll(PageRequest.of(0, 4, Sort.by(Sort.Direction.DESC, "year").and(Sort.by("name"))));
            assertThat(desc.getContent()).isEqualTo(expectedDesc.subList(0, 4));
            assertThatExceptionOfType(RuntimeException.class).as("the corrupt record is there for a full read")
                .isThrownBy(() -> titles.findAll(Sort.by("name")));
        });
    }

    private void corrupt(String id) {
        try (Stream<Path> files = Files.walk(this.root)) {
            Path file = files.filter((p) -> p.getFileName().toString().equals(id + ".jsonc")).findFirst().orElseThrow();
            Files.writeString(file, "{ not json");
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private void run(CatalogTest test) {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .run((context) -> test.run(context.getBean(TitleRepository.class), context.getBean(StorhOperations.class)));
    }

    private interface CatalogTest {

        void run(TitleRepository titles, StorhOperations operations);

    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "dev.storh.spring.sample.catalog")
    static class CatalogPackage {

    }

}

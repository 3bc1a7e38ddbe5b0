package dev.storh.spring.data.repository.query;

import java.nio.file.Path;
import java.util.List;

import dev.storh.query.FieldPath;
import dev.storh.query.QueryPlan;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.sample.books.Book;
import dev.storh.spring.sample.books.Book.Publisher;
import dev.storh.spring.sample.books.Book.Review;
import dev.storh.spring.sample.books.BookRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.domain.Example;
import org.springframework.data.domain.ExampleMatcher;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.Param;
import org.springframework.data.repository.query.QueryCreationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * String, collection and nested-property queries of a bookshop, on a real application context
 * whose repositories write real files.
 */
@ExtendWith(OutputCaptureExtension.class)
class BookshopQueryTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class))
        .withUserConfiguration(BooksPackage.class);

    private record Shelf(Book hobbit, Book silmarillion, Book dune, Book strasse) {
    }

    private static Shelf stock(BookRepository books) {
        Book hobbit = books.save(new Book(null, "The Hobbit", new Publisher("Allen & Unwin", "GB"),
                List.of("rare", "signed"), List.of(new Review("ann", 5), new Review("bob", 3)), 310L));
        Book silmarillion = books.save(new Book(null, "The Silmarillion", new Publisher("Allen & Unwin", "gb"),
                List.of("RARE"), List.of(new Review("cy", 4)), 365L));
        Book dune = books.save(new Book(null, "Dune", new Publisher("Chilton", "US"), List.of("classic"),
                List.of(new Review("ann", 5)), 412L));
        Book strasse = books.save(new Book(null, "Die Straße", new Publisher("Zeta", "DE"), List.of(), List.of(),
                90L));
        return new Shelf(hobbit, silmarillion, dune, strasse);
    }

    @Test
    void stringKeywords() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            BookRepository books = context.getBean(BookRepository.class);
            Shelf s = stock(books);
            assertThat(books.findByTitleContaining("il")).containsExactly(s.silmarillion());
            assertThat(books.findByTitleNotContaining("The")).containsExactly(s.dune(), s.strasse());
            assertThat(books.findByTitleEndingWith("bit")).containsExactly(s.hobbit());
            assertThat(books.findByTitleLike("The *")).containsExactly(s.hobbit(), s.silmarillion());
            assertThat(books.findByTitleLike("Dune")).containsExactly(s.dune());
            assertThat(books.findByTitleLike("Dun")).isEmpty();
            assertThat(books.findByTitleNotLike("*i*")).containsExactly(s.dune());
            assertThat(books.findByTitleMatchesRegex("^D")).containsExactly(s.dune(), s.strasse());
            assertThat(books.findByTitleRegex("H.bb")).containsExactly(s.hobbit());
            assertThat(books.findByTitleIgnoreCase("the hobbit")).containsExactly(s.hobbit());
            assertThat(books.findByTitleIgnoreCase("DIE STRASSE")).as("ß folds to ss in Locale.ROOT")
                .containsExactly(s.strasse());
            assertThat(books.findByTitleStartingWithIgnoreCase("the s")).containsExactly(s.silmarillion());
            assertThat(books.findByTitleStartingWith("the s")).isEmpty();
            assertThat(books.findByTitleContainingAndPublisherNameAllIgnoreCase("HOB", "allen & unwin"))
                .containsExactly(s.hobbit());
            assertThat(books.countByPublisherCountryIgnoreCase("GB")).isEqualTo(2);
            // the range index still serves StartingWith; folding case reads the records
            StorhOperations operations = context.getBean(StorhOperations.class);
            QueryPlan prefix = operations.explain(StorhQuery.where(StorhCriteria.where("title").startsWith("The")),
                    Book.class);
            assertThat(prefix.plan()).isEqualTo(QueryPlan.INDEX_SCAN);
            QueryPlan folded = operations.explain(
                    StorhQuery.where(StorhCriteria.where("title").ignoreCase().startsWith("the")), Book.class);
            assertThat(folded.plan()).isEqualTo(QueryPlan.FULL_SCAN);
        });
    }

    @Test
    void collectionKeywordsMatchElements() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            BookRepository books = context.getBean(BookRepository.class);
            Shelf s = stock(books);
            assertThat(books.findByTags("rare")).containsExactly(s.hobbit());
            assertThat(books.findByTagsContaining("rare")).containsExactly(s.hobbit());
            assertThat(books.findByTagsIgnoreCase("rare")).containsExactly(s.hobbit(), s.silmarillion());
            assertThat(books.findByTagsNotContaining("rare")).containsExactly(s.silmarillion(), s.dune(),
                    s.strasse());
            assertThat(books.findByTags(List.of("rare", "signed"))).as("a list argument matches the whole list")
                .containsExactly(s.hobbit());
            assertThat(books.findByTags(List.of("rare"))).isEmpty();
            assertThat(books.findByReviewsRating(5)).containsExactly(s.hobbit(), s.dune());
            assertThat(books.findByReviewsRating(4)).containsExactly(s.silmarillion());
            assertThat(books.findByReviewsRatingExists()).containsExactly(s.hobbit(), s.silmarillion(), s.dune());
        });
    }

    @Test
    void nestedPropertiesInQueriesSortsAndExamples() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            BookRepository books = context.getBean(BookRepository.class);
            Shelf s = stock(books);
            assertThat(books.findByPublisher_Name("Allen & Unwin")).containsExactly(s.hobbit(), s.silmarillion());
            assertThat(books.findByPublisherName("Chilton")).containsExactly(s.dune());
            assertThat(books.findByPublisherNameNot("Allen & Unwin")).containsExactly(s.dune(), s.strasse());
            assertThat(books.findByPagesGreaterThanOrderByPublisherNameDesc(300L)).containsExactly(s.dune(),
                    s.hobbit(), s.silmarillion());
            assertThat(books.findByPagesGreaterThan(0L, Sort.by("publisher.name").descending().and(Sort.by("title"))))
                .containsExactly(s.strasse(), s.dune(), s.hobbit(), s.silmarillion());
            assertThat(books.findAll(Sort.by("publisher.country", "title"))).containsExactly(s.strasse(), s.hobbit(),
                    s.dune(), s.silmarillion());
            Book probe = new Book(null, null, new Publisher("Allen & Unwin", null), null, null, null);
            assertThat(books.findAll(Example.of(probe))).containsExactly(s.hobbit(), s.silmarillion());
            Book countryProbe = new Book(null, null, new Publisher(null, "GB"), null, null, null);
            assertThat(books.findAll(Example.of(countryProbe, ExampleMatcher.matching().withIgnoreCase())))
                .containsExactly(s.hobbit(), s.silmarillion());
            assertThat(books.findAll(Example.of(countryProbe,
                    ExampleMatcher.matching().withIgnorePaths("publisher.country"))))
                .hasSize(4);
            StorhOperations operations = context.getBean(StorhOperations.class);
            assertThat(operations.find(StorhQuery.where(StorhCriteria.where(FieldPath.of("publisher", "country"))
                .is("US")), Book.class)).containsExactly(s.dune());
        });
    }

    @Test
    void declaredJsonQueriesBindByIndexAndNameAndSort() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            BookRepository books = context.getBean(BookRepository.class);
            Shelf s = stock(books);
            assertThat(books.declaredByCountryAndMorePages("GB", 300L)).containsExactly(s.hobbit());
            assertThat(books.declaredByCountryAndMorePages("gb", 300L)).containsExactly(s.silmarillion());
            assertThat(books.declaredByCountryAndMorePages("GB", 310L)).isEmpty();
            assertThat(books.declaredByTitleOrTag("Dune", "rare")).containsExactly(s.dune(), s.hobbit());
            assertThat(books.declaredCountTitlesMatching("^the ")).isEqualTo(2);
            assertThat(books.declaredTitlesBetween("D", "E", Sort.by("title").descending()))
                .containsExactly(s.dune(), s.strasse());
            Page<Book> page = books.declaredPublishersWithTopReview(List.of("Chilton", "Allen & Unwin"),
                    PageRequest.of(0, 1, Sort.by("pages")));
            assertThat(page.getContent()).containsExactly(s.hobbit());
            assertThat(page.getTotalElements()).isEqualTo(2);
            assertThat(books.declaredAnyWithoutRareTag()).isTrue();
        });
    }

    @Test
    void invalidDeclaredQueriesFailWhenTheRepositoryIsCreatedNamingTheMethod() {
        StorhTemplate template = new StorhTemplate(this.root);
        try {
            StorhRepositoryFactory factory = new StorhRepositoryFactory(template);
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(UnknownOperatorRepository.class))
                .withMessageContaining("UnknownOperatorRepository.near")
                .withMessageContaining("unknown operator $near on field 'title'");
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(MissingParameterRepository.class))
                .withMessageContaining("MissingParameterRepository.second")
                .withMessageContaining("parameter ?1 but the method declares 1 bindable parameter(s)");
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(UnknownNameRepository.class))
                .withMessageContaining("UnknownNameRepository.named")
                .withMessageContaining("parameter :nope is not a parameter name");
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(BrokenJsonRepository.class))
                .withMessageContaining("BrokenJsonRepository.broken")
                .withMessageContaining("invalid JSON");
            assertThatExceptionOfType(QueryCreationException.class)
                .isThrownBy(() -> factory.getRepository(BadSortRepository.class))
                .withMessageContaining("BadSortRepository.sorted")
                .withMessageContaining("sort direction of 'title' must be 1 or -1");
        }
        finally {
            template.close();
        }
    }

    interface UnknownOperatorRepository extends StorhRepository<Book, String> {

        @Query("{\"title\": {\"$near\": ?0}}")
        List<Book> near(String title);

    }

    interface MissingParameterRepository extends StorhRepository<Book, String> {

        @Query("{\"title\": ?0, \"pages\": ?1}")
        List<Book> second(String title);

    }

    interface UnknownNameRepository extends StorhRepository<Book, String> {

        @Query("{\"title\": :nope}")
        List<Book> named(@Param("title") String title);

    }

    interface BrokenJsonRepository extends StorhRepository<Book, String> {

        @Query("{\"title\": ")
        List<Book> broken();

    }

    interface BadSortRepository extends StorhRepository<Book, String> {

        @Query(value = "{}", sort = "{\"title\": 2}")
        List<Book> sorted();

    }

    @Test
    void debugLoggingOfDevStorhQueryLogsEachRepositoryQueryWithItsPlan(CapturedOutput output) {
        LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            BookRepository books = context.getBean(BookRepository.class);
            stock(books);
            try {
                logging.setLogLevel(StorhPartTreeQuery.PLAN_LOGGER, LogLevel.INFO);
                books.findByTitleStartingWith("Quiet");
                assertThat(output).doesNotContain("findByTitleStartingWith");
                logging.setLogLevel(StorhPartTreeQuery.PLAN_LOGGER, LogLevel.DEBUG);
                books.findByTitleStartingWith("The");
                books.findByTitleContaining("Hob");
                books.declaredTitlesBetween("A", "E", Sort.unsorted());
                assertThat(output).contains("BookRepository.findByTitleStartingWith(String): (title prefix [The])")
                    .contains("plan=index_scan, indexes=[{field=title, operator=prefix}]")
                    .contains("BookRepository.findByTitleContaining(String): (title contains [Hob])")
                    .contains("plan=full_scan")
                    .contains("BookRepository.declaredTitlesBetween: (title gte [A] and title neq [null] and title lt [E]"
                            + " and id exists [] and id neq [null]), sort UNSORTED -> {store=storh.DocStore, plan=index_scan");
            }
            finally {
                logging.setLogLevel(StorhPartTreeQuery.PLAN_LOGGER, null);
            }
        });
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = BookRepository.class)
    static class BooksPackage {

    }

}

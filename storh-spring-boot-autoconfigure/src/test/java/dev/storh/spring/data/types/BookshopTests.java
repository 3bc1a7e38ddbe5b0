package dev.storh.spring.data.types;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.store.VerifyReport;
import dev.storh.query.QueryPlan;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.config.EnableStorhAuditing;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.FilterType;
import org.springframework.dao.DuplicateKeyException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A bookshop with {@code BigDecimal} prices and auditing on, in a real context on real files:
 * prices round-trip exactly (scale included) and are stored as plain JSON numbers, the indexed
 * range query answers as a scan does, explain shows the index, verify is clean.
 */
class BookshopTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class))
        .withUserConfiguration(Config.class);

    @Test
    void bigDecimalPricesWithAuditingRoundTripExactlyAndAreServedByTheRangeIndex() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            BookRepository books = context.getBean(BookRepository.class);
            StorhTemplate template = context.getBean(StorhTemplate.class);
            Book cheap = books.save(new Book("978-0", "Cheap", "19.990", LocalDate.of(2024, 1, 9)));
            Book plain = books.save(new Book("978-1", "Plain", "19.99", LocalDate.of(2024, 1, 10)));
            Book huge = books.save(new Book("978-2", "Huge", "12345678901234567890.123456789", LocalDate.of(1999, 12, 31)));
            Book round = books.save(new Book("978-3", "Round", "20", LocalDate.of(2025, 6, 1)));
            Book tenth = books.save(new Book("978-4", "Tenth", "0.10", LocalDate.of(2000, 2, 29)));
            Book negative = books.save(new Book("978-5", "Refund", "-3.50", LocalDate.of(2010, 5, 5)));

            // auditing ran on an entity with BigDecimal properties
            assertThat(cheap.created).isNotNull();
            assertThat(cheap.version).isZero();

            for (Book saved : List.of(cheap, plain, huge, round, tenth, negative)) {
                Book read = books.findById(saved.id).orElseThrow();
                assertThat(read.price).as(saved.title).isEqualTo(saved.price);
                assertThat(read.price.scale()).as(saved.title).isEqualTo(saved.price.scale());
                assertThat(read.publisher).isEqualTo(saved.publisher);
                assertThat(read.tags).containsExactly("novel", "ro");
            }
            // the file keeps a JSON number, digits as given
            DocStore store = template.docStore("books");
            String cheapFile = Files.readString(store.pathForId(cheap.id));
            assertThat(cheapFile).contains("\"price\":19.990").contains("\"listPrice\":19.990");
            assertThat(Files.readString(store.pathForId(huge.id))).contains("\"price\":12345678901234567890.123456789");

            List<BigDecimal[]> ranges = List.of(
                    new BigDecimal[] { new BigDecimal("19.99"), new BigDecimal("20") },
                    new BigDecimal[] { new BigDecimal("19.990"), new BigDecimal("19.990") },
                    new BigDecimal[] { new BigDecimal("-5"), new BigDecimal("0.1") },
                    new BigDecimal[] { new BigDecimal("20.000000001"), new BigDecimal("12345678901234567890.123456789") });
            for (BigDecimal[] range : ranges) {
                List<String> indexed = books.findByPriceBetween(range[0], range[1]).stream().map((b) -> b.title).sorted().toList();
                List<String> scanned = books.findByListPriceBetween(range[0], range[1]).stream().map((b) -> b.title).sorted().toList();
                List<String> expected = List.of(cheap, plain, huge, round, tenth, negative).stream()
                    .filter((b) -> b.price.compareTo(range[0]) >= 0 && b.price.compareTo(range[1]) <= 0)
                    .map((b) -> b.title)
                    .sorted()
                    .toList();
                assertThat(indexed).as("between " + range[0] + " and " + range[1]).isEqualTo(expected).isEqualTo(scanned);
            }
            assertThat(books.findByPriceGreaterThanOrderByPriceAsc(new BigDecimal("19.99")).stream().map((b) -> b.title))
                .containsExactly("Round", "Huge");
            // 19.99 and 19.990 are the same amount: equal by value, as a range from one to the other says
            assertThat(books.findByPrice(new BigDecimal("19.99")).stream().map((b) -> b.title)).containsExactlyInAnyOrder("Cheap",
                    "Plain");

            StorhRepositoryFactory factory = new StorhRepositoryFactory(template);
            QueryPlan plan = factory.explain(BookRepository.class, "findByPriceBetween", new BigDecimal("1"),
                    new BigDecimal("2"));
            assertThat(plan.plan()).isEqualTo(QueryPlan.INDEX_SCAN);
            assertThat(factory.explain(BookRepository.class, "findByListPriceBetween", new BigDecimal("1"),
                    new BigDecimal("2")).plan()).isEqualTo(QueryPlan.FULL_SCAN);
            VerifyReport<?> report = store.verify();
            assertThat(report.errors()).isEmpty();
            assertThat(report.ok()).isTrue();

            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> books.save(new Book("978-0", "Copy", "1.00", LocalDate.of(2024, 1, 1))));
        });
    }

    @Test
    void numbersWrittenByOthersReadExactlyIntoBigDecimal() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            StorhTemplate template = context.getBean(StorhTemplate.class);
            BookRepository books = context.getBean(BookRepository.class);
            DocStore store = template.docStore(Book.class);
            // as a PHP writer or an older version would store them: a double, an integer, an exact decimal
            Map<String, Object> asDouble = new LinkedHashMap<>(Map.of("isbn", "d", "price", 19.99, "version", 0L));
            Map<String, Object> asLong = new LinkedHashMap<>(Map.of("isbn", "l", "price", 20L, "version", 0L));
            Map<String, Object> asDecimal = new LinkedHashMap<>(
                    Map.of("isbn", "b", "price", new BigDecimal("0.10"), "version", 0L));
            StorageRecord d = store.put(asDouble);
            StorageRecord l = store.put(asLong);
            StorageRecord b = store.put(asDecimal);
            assertThat(books.findById(d.id()).orElseThrow().price).isEqualTo(new BigDecimal("19.99"));
            assertThat(books.findById(l.id()).orElseThrow().price).isEqualTo(new BigDecimal("20"));
            assertThat(books.findById(b.id()).orElseThrow().price).isEqualTo(new BigDecimal("0.10"));
            assertThat(store.verify().ok()).isTrue();
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhAuditing
    @EnableStorhRepositories(basePackageClasses = BookRepository.class,
            includeFilters = @ComponentScan.Filter(type = FilterType.ASSIGNABLE_TYPE, classes = BookRepository.class))
    static class Config {

    }

}

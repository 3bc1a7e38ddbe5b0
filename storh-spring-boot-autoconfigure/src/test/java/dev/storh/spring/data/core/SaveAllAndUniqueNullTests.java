package dev.storh.spring.data.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import dev.storh.doc.DocStore;
import dev.storh.doc.DocStoreOptions;
import dev.storh.schema.Schema;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.boot.stores.StorhStoreOptions;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.sample.shop.Account;
import dev.storh.spring.sample.shop.AccountRepository;
import dev.storh.spring.sample.shop.Item;
import dev.storh.spring.sample.shop.ItemRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.OptimisticLockingFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * All-or-nothing {@code saveAll} and unique indexes that let any number of entities leave the
 * property unset, on a real application context writing real files.
 */
class SaveAllAndUniqueNullTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(
                AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class))
        .withUserConfiguration(ShopPackage.class);

    /** The root, and both collections in the index layout given. */
    private String[] properties(String layout) {
        return new String[] { "storh.root=" + this.root, "storh.collections.accounts.index-layout=" + layout,
            "storh.collections.items.index-layout=" + layout };
    }

    @Test
    void inValueDeltasAUniquePropertyIsHeldByItsPathIndexAloneAndStillRefusesABatch() {
        this.contextRunner.withPropertyValues(properties("value-deltas")).run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            List<Account> batch = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                batch.add(Account.of("user" + i + "@example.org", i));
            }
            List<Account> saved = accounts.saveAll(batch);
            DocStore store = context.getBean(StorhOperations.class).docStore(Account.class);
            assertThat(store.indexes().definitions()).extracting(dev.storh.doc.index.IndexDefinition::field)
                .doesNotContain("email");
            assertThat(store.indexes().pathDefinitions()).singleElement()
                .satisfies((d) -> assertThat(d.unique()).isTrue())
                .satisfies((d) -> assertThat(d.path()).isEqualTo(dev.storh.query.FieldPath.of("email")));
            // no value file per address: the original's equality folder of the field was never made
            Path eq = store.collectionRoot().resolve(".storh/indexes/entries/eq");
            try (Stream<Path> folders = Files.exists(eq) ? Files.list(eq) : Stream.empty()) {
                assertThat(folders).isEmpty();
            }
            assertThat(context.getBean(StorhOperations.class)
                .explain(dev.storh.spring.data.core.query.StorhQuery
                    .where(dev.storh.spring.data.core.query.StorhCriteria.where("email").is("user7@example.org")),
                        Account.class)
                .usesIndexes()).isTrue();
            assertThat(store.query().where("email").eq("user7@example.org").get()).singleElement()
                .satisfies((r) -> assertThat(r.id()).isEqualTo(saved.get(7).id()));
            List<String> before = files();
            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> accounts.saveAll(List.of(Account.of("new@example.org", 1),
                        Account.of("user39@example.org", 2))))
                .withMessageContaining("email")
                .withMessageContaining("user39@example.org")
                .withMessageContaining(saved.get(39).id());
            assertThat(files()).isEqualTo(before);
            assertThat(accounts.count()).isEqualTo(40);
            assertThat(store.verify().ok()).isTrue();
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "original", "value-deltas" })
    void aBatchThatBreaksAUniqueIndexWritesNothing(String layout) {
        this.contextRunner.withPropertyValues(properties(layout)).run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account ann = accounts.save(Account.of("ann@example.org", 1));
            List<String> before = files();

            // against the store: the third entity holds ann's address; core's putMany finds it
            // before writing (the template runs no query of its own for it)
            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> accounts.saveAll(List.of(Account.of("bob@example.org", 2),
                        Account.of("cy@example.org", 3), Account.of("ann@example.org", 4))))
                .withCauseInstanceOf(dev.storh.UniqueConstraintException.class)
                .withMessageContaining("'email'")
                .withMessageContaining("ann@example.org")
                .withMessageContaining(ann.id());
            // within the batch: two entities hold one address
            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> accounts.saveAll(List.of(Account.of("dee@example.org", 5),
                        Account.of("eve@example.org", 6), Account.of("dee@example.org", 7))))
                .withMessageContaining("entities 0 and 2")
                .withMessageContaining("dee@example.org");
            assertThat(files()).isEqualTo(before);
            assertThat(accounts.findAll()).containsExactly(ann);

            List<Account> saved = accounts.saveAll(List.of(Account.of("bob@example.org", 2), ann.withBalance(9)));
            assertThat(saved).extracting(Account::email, Account::balance, Account::version)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("bob@example.org", 2L, 0L),
                        org.assertj.core.groups.Tuple.tuple("ann@example.org", 9L, 1L));
            assertThat(accounts.findById(saved.get(0).id())).contains(saved.get(0));
            // moving a value from one record to another in one batch is refused as it is one save at a time
            assertThatExceptionOfType(DuplicateKeyException.class).isThrownBy(() -> accounts
                .saveAll(List.of(Account.of("ann@example.org", 1), saved.get(1).withEmail("zed@example.org"))));
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "original", "value-deltas" })
    void aBatchWithAStaleVersionWritesNothing(String layout) {
        this.contextRunner.withPropertyValues(properties(layout)).run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account ann = accounts.save(Account.of("ann@example.org", 1));
            Account current = accounts.save(ann.withBalance(2));
            List<String> before = files();

            assertThatExceptionOfType(OptimisticLockingFailureException.class)
                .isThrownBy(() -> accounts.saveAll(List.of(Account.of("fay@example.org", 3), ann.withBalance(4))))
                .withMessageContaining(ann.id())
                .withMessageContaining("the stored version is 1");
            assertThatExceptionOfType(OptimisticLockingFailureException.class)
                .isThrownBy(() -> accounts.saveAll(List.of(current.withBalance(5), current.withBalance(6))))
                .withMessageContaining("twice in one batch");
            assertThat(files()).isEqualTo(before);
            assertThat(accounts.findById(ann.id())).contains(current);
            // batches span one collection
            StorhOperations operations = context.getBean(StorhOperations.class);
            assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
                .isThrownBy(() -> operations.saveAll(List.<Object>of(Account.of("gus@example.org", 1),
                        Item.of("Axe", 30, null, "tools", "Fiskars"))))
                .withMessageContaining("across collections");
            assertThat(files()).isEqualTo(before);
        });
    }

    @Test
    void aBatchThatBreaksTheSchemaWritesNothing() {
        StorhStores stores = new StorhStores(this.root, new StorhStoreOptions() {
            @Override
            public DocStoreOptions collection(String collection) {
                return DocStoreOptions.builder()
                    .schema(Schema.collection(collection).string("email").required("email"))
                    .build();
            }
        });
        this.contextRunner.withBean(StorhStores.class, () -> stores).run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            accounts.save(Account.of("ann@example.org", 1));
            List<String> before = files();
            assertThatExceptionOfType(DataIntegrityViolationException.class)
                .isThrownBy(() -> accounts.saveAll(List.of(Account.of("bob@example.org", 2), Account.of(null, 3))))
                .withMessageContaining("email");
            assertThat(files()).isEqualTo(before);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "original", "value-deltas" })
    void concurrentBatchesOfTheSameUniqueValuesLeaveExactlyOneBatch(String layout) throws Exception {
        this.contextRunner.withPropertyValues(properties(layout)).run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            int threads = 4;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> outcomes = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long balance = t;
                Callable<String> batch = () -> {
                    List<Account> mine = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        mine.add(Account.of("user" + i + "@example.org", balance));
                    }
                    start.await();
                    try {
                        accounts.saveAll(mine);
                        return "saved " + balance;
                    }
                    catch (DuplicateKeyException ex) {
                        return "refused";
                    }
                };
                outcomes.add(pool.submit(batch));
            }
            start.countDown();
            List<String> results = new ArrayList<>();
            for (Future<String> outcome : outcomes) {
                results.add(outcome.get());
            }
            pool.shutdown();
            assertThat(results).filteredOn((result) -> result.startsWith("saved")).hasSize(1);
            assertThat(results).filteredOn("refused"::equals).hasSize(threads - 1);
            long winner = Long.parseLong(results.stream().filter((r) -> r.startsWith("saved")).findFirst().orElseThrow()
                .substring(6));
            assertThat(accounts.findAll()).hasSize(10).allSatisfy((a) -> assertThat(a.balance()).isEqualTo(winner));
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "original", "value-deltas" })
    void anyNumberOfEntitiesMayLeaveAUniquePropertyUnset(String layout) {
        this.contextRunner.withPropertyValues(properties(layout)).run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account first = accounts.save(Account.of(null, 1));
            Account second = accounts.save(Account.of(null, 2));
            List<Account> batch = accounts.saveAll(List.of(Account.of(null, 3), Account.of(null, 4),
                    Account.of("ann@example.org", 5)));
            assertThat(accounts.findByEmailIsNull()).containsExactly(first, second, batch.get(0), batch.get(1));
            DocStore store = context.getBean(StorhOperations.class).docStore(Account.class);
            // the unset property is left out of the record, so the unique index holds only values
            assertThat(store.get(first.id()).orElseThrow().data()).doesNotContainKey("email").containsKey("balance");
            assertThat(Files.readString(store.pathForId(first.id()))).doesNotContain("email");
            assertThat(store.query().where("email").eq("ann@example.org").count()).isEqualTo(1);
            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> accounts.save(Account.of("ann@example.org", 6)))
                .withMessageContaining("ann@example.org");
            // updating an unset one keeps it unset, and a set value may be cleared again
            Account cleared = accounts.save(accounts.findById(batch.get(2).id()).orElseThrow().withEmail(null));
            assertThat(cleared.email()).isNull();
            assertThat(accounts.findByEmailIsNull()).hasSize(5);
            assertThat(store.verify().ok()).isTrue();

            ItemRepository items = context.getBean(ItemRepository.class);
            items.saveAll(List.of(Item.of("Bit", 10, null, "tools", "Bahco"), Item.of("Awl", 10, null, "tools", "Bahco"),
                    Item.of("Axe", 30, "T-1", "tools", "Fiskars")));
            assertThat(items.findBySkuIsNull()).extracting(Item::title).containsExactly("Bit", "Awl");
        });
    }

    private List<String> files() {
        try (Stream<Path> walk = Files.walk(this.root)) {
            return walk.filter(Files::isRegularFile)
                .map((path) -> this.root.relativize(path).toString())
                .filter((name) -> !name.contains(".storh/writers"))
                .sorted()
                .map((name) -> name + " " + size(this.root.resolve(name)))
                .toList();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackages = "dev.storh.spring.sample.shop")
    static class ShopPackage {

    }

}

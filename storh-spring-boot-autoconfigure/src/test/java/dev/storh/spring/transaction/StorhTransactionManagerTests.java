package dev.storh.spring.transaction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhRepositoriesAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.transaction.StorhTransactionAutoConfiguration;
import dev.storh.spring.data.core.StorhOperations;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.InvalidIsolationLevelException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The storh transaction manager on a real application context and real files: auto-configuration,
 * visibility at commit only, reads of the transaction's own writes, rollback, conflicts with other
 * writers at commit, roll-forward of a commit record on startup, and many threads transferring
 * between versioned accounts.
 */
class StorhTransactionManagerTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhRepositoriesAutoConfiguration.class,
                StorhTransactionAutoConfiguration.class, TransactionAutoConfiguration.class))
        .withUserConfiguration(BankConfig.class);

    @TempDir
    Path root;

    private void run(ContextTest test) {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            assertThat(context).hasNotFailed();
            test.run(context);
        });
    }

    @Test
    void autoConfiguredOverTheRootWithBootsTransactionTemplate() {
        run((context) -> {
            assertThat(context).hasSingleBean(StorhTransactionManager.class).hasSingleBean(TransactionTemplate.class);
            assertThat(context.getBean(StorhTransactionManager.class).getJournalFolder())
                .isEqualTo(this.root.toAbsolutePath().normalize().resolve(".storh/transactions"));
        });
    }

    @Test
    void backsOffWhenTheApplicationDefinesATransactionManager() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(OwnTransactionManagerConfig.class)
            .run((context) -> assertThat(context).doesNotHaveBean(StorhTransactionManager.class)
                .hasSingleBean(PlatformTransactionManager.class));
    }

    @Test
    void writesAreInvisibleAndAbsentFromDiskUntilCommitThenAllThere() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Bank bank = context.getBean(Bank.class);
            List<Account> opened = bank.open(List.of(Account.of("ada@x", 10), Account.of("bob@x", 20),
                    Account.of("cy@x", 30)), (saved) -> {
                        // inside: the transaction sees its own writes, by id, by query and in counts
                        assertThat(accounts.findById(saved.get(1).id())).contains(saved.get(1));
                        assertThat(accounts.findByEmail("cy@x")).contains(saved.get(2));
                        assertThat(accounts.findByBalanceGreaterThanOrderByBalanceDesc(15)).extracting(Account::email)
                            .containsExactly("cy@x", "bob@x");
                        assertThat(accounts.count()).isEqualTo(3);
                        assertThat(accounts.countByBalanceGreaterThan(15)).isEqualTo(2);
                        // outside: another thread sees none of them, and no record file exists
                        assertThat(onOtherThread(() -> accounts.findById(saved.get(0).id()).isPresent())).isFalse();
                        assertThat(onOtherThread(() -> accounts.count()).longValue()).isZero();
                        assertThat(recordFiles("accounts")).isZero();
                    });
            assertThat(recordFiles("accounts")).isEqualTo(3);
            assertThat(onOtherThread(() -> accounts.findAllById(opened.stream().map(Account::id).toList())))
                .containsExactlyInAnyOrderElementsOf(opened);
            assertThat(accounts.findByEmail("bob@x")).contains(opened.get(1));
            assertThat(journalFiles()).isEmpty();
            assertThat(docStore(context, "accounts").verify().ok()).isTrue();
        });
    }

    @Test
    void readsSeeOwnOverwritesAndDeletesOverStoredRecords() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            List<Account> stored = accounts.saveAll(List.of(Account.of("a@x", 1), Account.of("b@x", 2),
                    Account.of("c@x", 3)));
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            tx.executeWithoutResult((status) -> {
                accounts.delete(stored.get(0));
                Account raised = accounts.save(stored.get(1).withBalance(50));
                assertThat(accounts.findById(stored.get(0).id())).isEmpty();
                assertThat(accounts.existsById(stored.get(0).id())).isFalse();
                assertThat(accounts.findById(raised.id())).contains(raised);
                assertThat(raised.version()).isEqualTo(1L);
                assertThat(accounts.findAll()).extracting(Account::email).containsExactlyInAnyOrder("b@x", "c@x");
                assertThat(accounts.findByBalanceGreaterThanOrderByBalanceDesc(0)).extracting(Account::balance)
                    .containsExactly(50L, 3L);
                assertThat(accounts.count()).isEqualTo(2);
                // the stored records are untouched until commit
                assertThat(onOtherThread(() -> accounts.findById(stored.get(1).id()).orElseThrow().balance()))
                    .isEqualTo(2L);
            });
            assertThat(accounts.findById(stored.get(0).id())).isEmpty();
            assertThat(accounts.findById(stored.get(1).id()).orElseThrow().balance()).isEqualTo(50L);
            assertThat(recordFiles("accounts")).isEqualTo(2);
            assertThat(docStore(context, "accounts").verify().ok()).isTrue();
        });
    }

    @Test
    void aSingleWriteCommitsWithoutACommitRecord() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account saved = context.getBean(TransactionTemplate.class)
                .execute((status) -> accounts.save(Account.of("solo@x", 1)));
            assertThat(accounts.findByEmail("solo@x")).contains(saved);
            assertThat(this.root.resolve(".storh/transactions")).doesNotExist();
        });
    }

    @Test
    void rollbackDiscardsEveryWrite() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Bank bank = context.getBean(Bank.class);
            assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> bank.openThenFail(Account.of("z@x", 1)));
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            tx.executeWithoutResult((status) -> {
                accounts.save(Account.of("y@x", 2));
                status.setRollbackOnly();
            });
            assertThat(accounts.count()).isZero();
            assertThat(recordFiles("accounts")).isZero();
            assertThat(journalFiles()).isEmpty();
        });
    }

    @Test
    void requiresNewCommitsOnItsOwnWhileTheOuterRollsBack() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Bank bank = context.getBean(Bank.class);
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            tx.executeWithoutResult((status) -> {
                accounts.save(Account.of("outer@x", 1));
                bank.openInNewTransaction(Account.of("inner@x", 2));
                assertThat(accounts.count()).as("outer sees the inner commit and its own write").isEqualTo(2);
                status.setRollbackOnly();
            });
            assertThat(accounts.findAll()).extracting(Account::email).containsExactly("inner@x");
        });
    }

    @Test
    void versionConflictWithAnotherWriterFailsTheCommitAndWritesNothing() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account stored = accounts.save(Account.of("v@x", 10));
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            assertThatExceptionOfType(OptimisticLockingFailureException.class).isThrownBy(() -> tx.executeWithoutResult((s) -> {
                Account mine = accounts.findById(stored.id()).orElseThrow();
                accounts.save(mine.withBalance(11));
                accounts.save(Account.of("other@x", 1));
                // another writer saves the same version first
                onOtherThread(() -> accounts.save(stored.withBalance(99)));
            })).withMessageContaining(stored.id()).withMessageContaining("modified");
            assertThat(accounts.findById(stored.id()).orElseThrow()).extracting(Account::balance, Account::version)
                .containsExactly(99L, 1L);
            assertThat(accounts.findByEmail("other@x")).isEmpty();
            assertThat(journalFiles()).isEmpty();
        });
    }

    @Test
    void uniqueConflictWithAnotherWriterFailsTheCommitAndWritesNothing() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Bank bank = context.getBean(Bank.class);
            assertThatExceptionOfType(DuplicateKeyException.class)
                .isThrownBy(() -> bank.open(List.of(Account.of("first@x", 1), Account.of("taken@x", 2)),
                        (saved) -> onOtherThread(() -> accounts.save(Account.of("taken@x", 3)))))
                .withMessageContaining("taken@x");
            assertThat(accounts.findAll()).extracting(Account::email).containsExactly("taken@x");
            assertThat(recordFiles("accounts")).isOne();
        });
    }

    @Test
    void insertOfAnIdAnotherWriterCreatedMeanwhileIsADuplicateKey() {
        run((context) -> {
            StorhOperations operations = context.getBean(StorhOperations.class);
            String id = UuidV7.generate();
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            assertThatExceptionOfType(DuplicateKeyException.class).isThrownBy(() -> tx.executeWithoutResult((s) -> {
                operations.insert(new Account(id, null, "mine@x", 1));
                onOtherThread(() -> operations.insert(new Account(id, null, "theirs@x", 2)));
            })).withMessageContaining(id);
            assertThat(operations.findById(id, Account.class).orElseThrow().email()).isEqualTo("theirs@x");
        });
    }

    @Test
    void uniqueValueFreedInTheSameTransactionCanBeTaken() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account old = accounts.save(Account.of("moving@x", 1));
            context.getBean(TransactionTemplate.class).executeWithoutResult((s) -> {
                accounts.delete(old);
                accounts.save(Account.of("moving@x", 2));
            });
            assertThat(accounts.findByEmail("moving@x").orElseThrow().balance()).isEqualTo(2L);
            assertThat(docStore(context, "accounts").verify().ok()).isTrue();
        });
    }

    @Test
    void twoRecordsSwapTheirUniqueValuesInOneTransactionAndEveryLaterCommitLandsAfterIt() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Account a = accounts.save(Account.of("a@x", 1));
            Account b = accounts.save(Account.of("b@x", 2));
            TransactionTemplate tx = context.getBean(TransactionTemplate.class);
            tx.executeWithoutResult((s) -> {
                accounts.save(new Account(a.id(), a.version(), "b@x", 10));
                accounts.save(new Account(b.id(), b.version(), "a@x", 20));
            });
            assertThat(accounts.findByEmail("b@x").orElseThrow().id()).isEqualTo(a.id());
            assertThat(accounts.findByEmail("a@x").orElseThrow().id()).isEqualTo(b.id());
            assertThat(journalFiles()).as("the swap applied whole: no commit record left to roll forward").isEmpty();

            Account a2 = accounts.findById(a.id()).orElseThrow();
            Account b2 = accounts.findById(b.id()).orElseThrow();
            tx.executeWithoutResult((s) -> {
                accounts.save(a2.withBalance(11));
                accounts.save(b2.withBalance(21));
            });
            assertThat(context.getBean(StorhTransactionManager.class).recover()).isZero();
            assertThat(accounts.findById(a.id()).orElseThrow()).extracting(Account::email, Account::balance)
                .containsExactly("b@x", 11L);
            assertThat(accounts.findById(b.id()).orElseThrow()).extracting(Account::email, Account::balance)
                .containsExactly("a@x", 21L);
            assertThat(docStore(context, "accounts").verify().ok()).isTrue();
        });
    }

    @Test
    void stricterIsolationAndWritesInReadOnlyTransactionsAreRefused() {
        run((context) -> {
            Bank bank = context.getBean(Bank.class);
            assertThatExceptionOfType(InvalidIsolationLevelException.class).isThrownBy(bank::serializableCount)
                .withMessageContaining("READ_COMMITTED");
            assertThatExceptionOfType(IllegalTransactionStateException.class)
                .isThrownBy(() -> bank.saveInReadOnly(Account.of("ro@x", 1)))
                .withMessageContaining("read-only");
            assertThat(recordFiles("accounts")).isZero();
        });
    }

    @Test
    void aCommitRecordLeftByACrashIsRolledForwardOnStartupAndATempFileRemoved() throws IOException {
        String a = UuidV7.generate();
        String b = UuidV7.generate();
        String tx = UuidV7.generate();
        Path journal = Files.createDirectories(this.root.resolve(".storh/transactions"));
        Files.write(journal.resolve(tx + ".commit"), CommitJournal.encode(tx,
                List.of(new BufferedWrite("accounts", a, Map.of("email", "rolled@x", "balance", 5L, "version", 0L)),
                        new BufferedWrite("accounts", b, Map.of("email", "forward@x", "balance", 6L, "version", 0L)))));
        String uncommitted = UuidV7.generate();
        Files.write(journal.resolve("." + uncommitted + ".tmp"), CommitJournal.encode(uncommitted,
                List.of(new BufferedWrite("accounts", UuidV7.generate(), Map.of("email", "never@x")))));
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            assertThat(accounts.findByEmail("rolled@x").orElseThrow().id()).isEqualTo(a);
            assertThat(accounts.findById(b).orElseThrow().email()).isEqualTo("forward@x");
            assertThat(accounts.count()).isEqualTo(2);
            assertThat(journalFiles()).isEmpty();
            assertThat(docStore(context, "accounts").verify().ok()).isTrue();
        });
    }

    @Test
    void aDamagedCommitRecordStopsStartupNamingIt() throws IOException {
        String tx = UuidV7.generate();
        Path journal = Files.createDirectories(this.root.resolve(".storh/transactions"));
        byte[] bytes = CommitJournal.encode(tx, List.of(new BufferedWrite("accounts", UuidV7.generate(),
                Map.of("email", "x@x"))));
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(journal.resolve(tx + ".commit"), bytes);
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining(tx + ".commit")
                .hasStackTraceContaining("Damaged");
        });
        assertThat(new String(Files.readAllBytes(journal.resolve(tx + ".commit")), StandardCharsets.UTF_8))
            .as("left in place for inspection").isNotEmpty();
    }

    @Test
    void concurrentTransfersKeepTheTotalAndLoseNoUpdate() {
        run((context) -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            Bank bank = context.getBean(Bank.class);
            List<Account> all = accounts.saveAll(List.of(Account.of("t0@x", 1000), Account.of("t1@x", 1000),
                    Account.of("t2@x", 1000), Account.of("t3@x", 1000)));
            int threads = 8;
            int transfersPerThread = 15;
            AtomicInteger conflicts = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    java.util.Random random = new java.util.Random(seed);
                    for (int i = 0; i < transfersPerThread; i++) {
                        int from = random.nextInt(4);
                        int to = (from + 1 + random.nextInt(3)) % 4;
                        while (true) {
                            try {
                                bank.transfer(all.get(from).id(), all.get(to).id(), 1);
                                break;
                            }
                            catch (OptimisticLockingFailureException ex) {
                                conflicts.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(2, TimeUnit.MINUTES);
            }
            pool.shutdown();
            List<Account> after = accounts.findAllById(all.stream().map(Account::id).toList());
            assertThat(after.stream().mapToLong(Account::balance).sum()).isEqualTo(4000);
            long versions = after.stream().mapToLong(Account::version).sum();
            assertThat(versions).as("each of the %d transfers bumped two versions (%d conflicts retried)",
                    threads * transfersPerThread, conflicts.get()).isEqualTo(2L * threads * transfersPerThread);
            assertThat(docStore(context, "accounts").verify().ok()).isTrue();
        });
    }

    private static <T> T onOtherThread(java.util.concurrent.Callable<T> action) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return action.call();
                }
                catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            }).get(1, TimeUnit.MINUTES);
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static DocStore docStore(AssertableApplicationContext context, String collection) {
        return context.getBean(StorhOperations.class).docStore(collection);
    }

    private long recordFiles(String collection) {
        Path data = this.root.resolve(collection).resolve("data");
        if (!Files.isDirectory(data)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter((p) -> p.getFileName().toString().endsWith(".jsonc")).count();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private List<String> journalFiles() {
        Path journal = this.root.resolve(".storh/transactions");
        if (!Files.isDirectory(journal)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(journal)) {
            return files.map((p) -> p.getFileName().toString()).toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @FunctionalInterface
    interface ContextTest {

        void run(AssertableApplicationContext context) throws Exception;

    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = AccountRepository.class)
    static class BankConfig {

        @Bean
        Bank bank(AccountRepository accounts) {
            return new Bank(accounts);
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnTransactionManagerConfig {

        @Bean
        PlatformTransactionManager ownTransactionManager() {
            return new AbstractPlatformTransactionManager() {

                @Override
                protected Object doGetTransaction() {
                    return new Object();
                }

                @Override
                protected void doBegin(Object transaction, TransactionDefinition definition) {
                }

                @Override
                protected void doCommit(DefaultTransactionStatus status) {
                }

                @Override
                protected void doRollback(DefaultTransactionStatus status) {
                }

            };
        }

    }

}

package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.storh.id.UuidV7;
import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Transient;
import org.springframework.data.annotation.Version;
import org.springframework.data.mapping.MappingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Issue 7 mapping and {@code @Version}: UUID ids, {@code @Transient}, unique indexes and
 * optimistic locking on real files, with real threads.
 */
class StorhTemplateVersioningTests {

    @TempDir
    Path root;

    private StorhTemplate template;

    @BeforeEach
    void createTemplate() {
        this.template = new StorhTemplate(this.root);
    }

    @AfterEach
    void closeTemplate() {
        this.template.close();
    }

    @Test
    void newWrapperVersionIsStoredAsZeroAndEachSaveAddsOne() {
        Account account = this.template.save(new Account("ada", 10));
        assertThat(account.version).isEqualTo(0L);
        assertThat(stored(account).get("version")).isEqualTo(0L);

        account.balance = 20;
        Account again = this.template.save(account);
        assertThat(again.version).isEqualTo(1L);
        assertThat(this.template.findById(account.id.toString(), Account.class)).get()
            .extracting((a) -> a.balance, (a) -> a.version)
            .containsExactly(20L, 1L);
    }

    @Test
    void primitiveVersionOfARecordStartsAtOne() {
        Counter counter = this.template.save(new Counter(null, 0, 5));
        assertThat(counter.version()).isEqualTo(1);
        Counter next = this.template.save(new Counter(counter.id(), counter.version(), 6));
        assertThat(next.version()).isEqualTo(2);
        assertThatExceptionOfType(OptimisticLockingFailureException.class)
            .isThrownBy(() -> this.template.save(new Counter(counter.id(), 1, 7)))
            .withMessageContaining(counter.id())
            .withMessageContaining("version 1")
            .withMessageContaining("stored version is 2");
        assertThat(this.template.findById(counter.id(), Counter.class)).contains(new Counter(counter.id(), 2, 6));
    }

    @Test
    void staleSaveThrowsAndWritesNothing() {
        Account account = this.template.save(new Account("ada", 10));
        Account first = this.template.findById(account.id.toString(), Account.class).orElseThrow();
        Account second = this.template.findById(account.id.toString(), Account.class).orElseThrow();
        first.balance = 11;
        this.template.save(first);
        second.balance = 99;
        assertThatExceptionOfType(OptimisticLockingFailureException.class)
            .isThrownBy(() -> this.template.save(second))
            .withMessageContaining("modified meanwhile");
        assertThat(stored(account)).containsEntry("balance", 11L).containsEntry("version", 1L);
        assertThat(second.version).isEqualTo(0L);
    }

    @Test
    void savingADeletedVersionedEntityOrANewOneWithATakenIdFails() {
        Account account = this.template.save(new Account("ada", 10));
        Account copy = this.template.findById(account.id.toString(), Account.class).orElseThrow();
        this.template.deleteById(account.id.toString(), Account.class);
        assertThatExceptionOfType(OptimisticLockingFailureException.class)
            .isThrownBy(() -> this.template.save(copy))
            .withMessageContaining("deleted meanwhile");
        assertThat(this.template.count(Account.class)).isZero();

        Account taken = this.template.save(new Account("bob", 1));
        Account intruder = new Account("eve", 2);
        intruder.id = taken.id;
        assertThatExceptionOfType(OptimisticLockingFailureException.class)
            .isThrownBy(() -> this.template.save(intruder))
            .withMessageContaining("stored meanwhile");
        assertThat(stored(taken)).containsEntry("owner", "bob");
    }

    @Test
    void versionedDeleteChecksTheVersion() {
        Account account = this.template.save(new Account("ada", 10));
        Account stale = this.template.findById(account.id.toString(), Account.class).orElseThrow();
        account.balance = 12;
        this.template.save(account);
        assertThatExceptionOfType(OptimisticLockingFailureException.class)
            .isThrownBy(() -> this.template.delete(stale));
        assertThat(this.template.exists(account.id.toString(), Account.class)).isTrue();
        assertThat(this.template.delete(account)).isTrue();
        assertThat(this.template.exists(account.id.toString(), Account.class)).isFalse();
    }

    @Test
    void sixteenThreadsInConflictingPairsExactlyOneOfEachPairWins() throws Exception {
        int pairs = 8;
        int rounds = 25;
        ExecutorService pool = Executors.newFixedThreadPool(2 * pairs);
        try {
            for (int round = 0; round < rounds; round++) {
                List<Account> accounts = new ArrayList<>();
                for (int p = 0; p < pairs; p++) {
                    accounts.add(this.template.save(new Account("pair-" + p, 0)));
                }
                CyclicBarrier start = new CyclicBarrier(2 * pairs);
                List<Future<Long>> results = new ArrayList<>();
                for (int t = 0; t < 2 * pairs; t++) {
                    String id = accounts.get(t / 2).id.toString();
                    long balance = 1000 + t;
                    results.add(pool.submit(() -> {
                        Account mine = this.template.findById(id, Account.class).orElseThrow();
                        mine.balance = balance;
                        start.await();
                        try {
                            this.template.save(mine);
                            return balance;
                        }
                        catch (OptimisticLockingFailureException ex) {
                            return -1L;
                        }
                    }));
                }
                for (int p = 0; p < pairs; p++) {
                    long a = results.get(2 * p).get();
                    long b = results.get(2 * p + 1).get();
                    assertThat(a == -1 ^ b == -1).as("round %d pair %d: exactly one wins (%d, %d)", round, p, a, b)
                        .isTrue();
                    long winner = Math.max(a, b);
                    assertThat(stored(accounts.get(p))).containsEntry("balance", winner).containsEntry("version", 1L);
                }
            }
        }
        finally {
            pool.shutdownNow();
        }
    }

    @Test
    void uuidIdsAreGeneratedAsUuidV7AndOtherVersionsAreRefused() {
        Account account = this.template.save(new Account("ada", 1));
        assertThat(account.id.version()).isEqualTo(7);
        assertThat(UuidV7.isValid(account.id.toString())).isTrue();
        assertThat(this.template.docStore("accounts").pathForId(account.id.toString())).exists();

        Account v4 = new Account("eve", 1);
        v4.id = UUID.randomUUID();
        assertThatExceptionOfType(InvalidDataAccessApiUsageException.class)
            .isThrownBy(() -> this.template.save(v4))
            .withMessageContaining(v4.id.toString())
            .withMessageContaining("not a valid UUIDv7");
        assertThat(this.template.count(Account.class)).isEqualTo(1);
    }

    @Test
    void transientPropertiesAreNotStoredAndIdIsNotADataField() {
        Account account = new Account("ada", 1);
        account.scratch = "temporary";
        this.template.save(account);
        assertThat(stored(account)).containsOnlyKeys("version", "owner", "balance");
        assertThat(this.template.findById(account.id.toString(), Account.class).orElseThrow().scratch).isNull();
    }

    @Test
    void uniqueIndexRefusesASecondHolderAndWritesNothing() {
        Login ada = this.template.save(new Login(null, "ada@example.org"));
        assertThatExceptionOfType(DuplicateKeyException.class)
            .isThrownBy(() -> this.template.save(new Login(null, "ada@example.org")))
            .withMessageContaining("email")
            .withMessageContaining(ada.id());
        assertThat(this.template.count(Login.class)).isEqualTo(1);
        // The uniqueness is a path index (null and missing unchecked) beside a unique index the original reads
        // (the template never stores a null unique property, so the original's check never sees one).
        assertThat(this.template.docStore("login").indexes().definitions()).singleElement()
            .satisfies((d) -> assertThat(d.unique()).isTrue());
        assertThat(this.template.docStore("login").indexes().pathDefinitions()).singleElement()
            .satisfies((d) -> assertThat(d.unique()).isTrue())
            .satisfies((d) -> assertThat(d.path()).isEqualTo(dev.storh.query.FieldPath.of("email")));
    }

    @Test
    void versionOfAnotherTypeIsAMappingError() {
        assertThatExceptionOfType(MappingException.class)
            .isThrownBy(() -> this.template.save(new StringVersion(null, "1")))
            .withMessageContaining("@Version property 'version'")
            .withMessageContaining("long or Long");
    }

    private Map<String, Object> stored(Account account) {
        return this.template.docStore("accounts").get(account.id.toString()).orElseThrow().data();
    }

    @Document(collection = "accounts")
    static class Account {

        @Id
        public UUID id;

        @Version
        public Long version;

        public String owner;

        public long balance;

        @Transient
        public String scratch;

        Account() {
        }

        Account(String owner, long balance) {
            this.owner = owner;
            this.balance = balance;
        }

    }

    record Counter(@Id String id, @Version long version, long value) {
    }

    record Login(@Id String id, @Indexed(unique = true) String email) {
    }

    record StringVersion(@Id String id, @Version String version) {
    }

}

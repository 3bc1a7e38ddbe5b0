package dev.storh.spring.transaction;

import java.util.List;
import java.util.function.Consumer;

import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * {@code @Transactional} service methods of the transaction tests.
 */
public class Bank {

    private final AccountRepository accounts;

    public Bank(AccountRepository accounts) {
        this.accounts = accounts;
    }

    @Transactional
    public List<Account> open(List<Account> newAccounts, Consumer<List<Account>> beforeCommit) {
        List<Account> saved = this.accounts.saveAll(newAccounts);
        beforeCommit.accept(saved);
        return saved;
    }

    @Transactional
    public void transfer(String from, String to, long amount) {
        Account source = this.accounts.findById(from).orElseThrow();
        Account target = this.accounts.findById(to).orElseThrow();
        if (source.balance() < amount) {
            throw new IllegalStateException("insufficient funds in " + from);
        }
        this.accounts.save(source.withBalance(source.balance() - amount));
        this.accounts.save(target.withBalance(target.balance() + amount));
    }

    @Transactional
    public void openThenFail(Account account) {
        this.accounts.save(account);
        throw new IllegalStateException("fails after the save");
    }

    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public Account openInNewTransaction(Account account) {
        return this.accounts.save(account);
    }

    @Transactional(isolation = Isolation.SERIALIZABLE)
    public long serializableCount() {
        return this.accounts.count();
    }

    @Transactional(readOnly = true)
    public void saveInReadOnly(Account account) {
        this.accounts.save(account);
    }

}

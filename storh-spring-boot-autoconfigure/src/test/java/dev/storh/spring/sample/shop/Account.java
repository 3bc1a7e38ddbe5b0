package dev.storh.spring.sample.shop;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * A versioned account with a unique e-mail address.
 *
 * @param id the record id
 * @param email unique where set
 * @param balance the balance
 * @param version the optimistic-locking version
 */
@Document(collection = "accounts")
public record Account(@Id String id, @Indexed(unique = true) String email, Long balance, @Version Long version) {

    public static Account of(String email, long balance) {
        return new Account(null, email, balance, null);
    }

    public Account withEmail(String newEmail) {
        return new Account(this.id, newEmail, this.balance, this.version);
    }

    public Account withBalance(long newBalance) {
        return new Account(this.id, this.email, newBalance, this.version);
    }

}

package dev.storh.spring.transaction;

import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;

import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * A versioned entity with a unique e-mail and a range-indexed balance.
 */
@Document(collection = "accounts")
public record Account(@Id String id, @Version Long version, @Indexed(unique = true) String email,
        @Indexed(range = true) long balance) {

    static Account of(String email, long balance) {
        return new Account(null, null, email, balance);
    }

    Account withBalance(long newBalance) {
        return new Account(this.id, this.version, this.email, newBalance);
    }

}

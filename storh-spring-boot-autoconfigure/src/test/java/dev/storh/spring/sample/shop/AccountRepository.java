package dev.storh.spring.sample.shop;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

/**
 * Accounts.
 */
public interface AccountRepository extends StorhRepository<Account, String> {

    List<Account> findByEmailIsNull();

}

package dev.storh.spring.transaction;

import java.util.List;
import java.util.Optional;

import dev.storh.spring.data.repository.StorhRepository;

public interface AccountRepository extends StorhRepository<Account, String> {

    Optional<Account> findByEmail(String email);

    List<Account> findByBalanceGreaterThanOrderByBalanceDesc(long balance);

    long countByBalanceGreaterThan(long balance);

}

/**
 * Spring transactions over a storh root: {@link dev.storh.spring.transaction.StorhTransactionManager}
 * for {@code @Transactional} and {@code TransactionTemplate}, with writes held until commit, a
 * commit record under {@code .storh/transactions/} and roll-forward after a crash, and the
 * {@link dev.storh.spring.transaction.CollectionAccess} the template reads and writes through.
 */
package dev.storh.spring.transaction;

package dev.storh.spring.transaction;

import java.nio.file.Path;
import java.util.List;

import dev.storh.id.UuidV7;
import dev.storh.spring.data.core.StorhExceptionTranslator;
import dev.storh.spring.data.core.StorhOperations;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.InvalidIsolationLevelException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionStatus;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.SmartTransactionObject;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;

/**
 * Spring's transaction manager for storh: {@code @Transactional} methods and
 * {@code TransactionTemplate}s over the collections of one {@link StorhOperations} (one storh
 * root, or namespace folder).
 * <p>
 * <b>Writes</b> (saves and deletes through the template and the repositories) inside a transaction
 * are held in memory, on the transaction's thread, and nothing reaches the files before commit.
 * <b>Commit</b> takes the write lock of every collection the transaction wrote to (in collection
 * name order), checks for conflicts, writes one commit record with every write to
 * {@code <root>/.storh/transactions/<transaction id>.commit} (temp file, fsync, rename, folder
 * fsync; the format is in {@code docs/transactions.md}), then writes each record file as a plain
 * save does (atomically: temp file, fsync, rename, so readers, the PHP original included, never
 * see a half-written record), updates the indexes, and deletes the commit record. The writes are
 * durable together once the commit record is: after a crash, {@link #afterPropertiesSet()} (run
 * when the bean starts, before it serves a transaction) rolls every commit record found forward,
 * and a transaction that had not written its commit record leaves nothing behind.
 * <p>
 * <b>Conflicts</b> are detected at commit, under the locks: a record the transaction read and then
 * wrote (every {@code @Version}ed save and delete, every {@code insert}) that another writer changed
 * or deleted since fails the commit with {@link org.springframework.dao.OptimisticLockingFailureException},
 * one another writer created since with {@link org.springframework.dao.DuplicateKeyException}, and
 * a value a unique index already holds for another record with
 * {@link org.springframework.dao.DuplicateKeyException}; a failed commit writes nothing. A blind
 * save (no {@code @Version}, an id given) overwrites whatever is stored, as outside a transaction.
 * <p>
 * <b>Isolation</b>: {@link TransactionDefinition#ISOLATION_READ_COMMITTED} (also given for
 * {@code DEFAULT} and {@code READ_UNCOMMITTED}; {@code REPEATABLE_READ} and {@code SERIALIZABLE}
 * are refused). Reads inside a transaction see its own writes over the latest stored records;
 * records it only reads may change under it; a lost update is impossible for records it read before
 * writing. Other threads and processes see none of its writes before commit, and during the few
 * milliseconds a commit applies its records, a reader elsewhere may see some applied and others
 * not yet (each record whole): storh readers take no lock. Propagation {@code REQUIRED},
 * {@code REQUIRES_NEW}, {@code SUPPORTS}, {@code NOT_SUPPORTED}, {@code MANDATORY} and
 * {@code NEVER} work as Spring defines them; {@code NESTED} is refused. Timeouts are not enforced.
 * A read-only transaction refuses writes.
 * <p>
 * Thread-safe; one instance serves every thread.
 */
public class StorhTransactionManager extends AbstractPlatformTransactionManager
        implements ResourceTransactionManager, InitializingBean {

    private static final Log LOG = LogFactory.getLog(StorhTransactionManager.class);

    private final StorhOperations operations;

    private final CommitJournal journal;

    private final Key key;

    private final StorhExceptionTranslator translator = new StorhExceptionTranslator();

    /** Set when a commit's record is durable but its writes are not all applied yet. */
    private final java.util.concurrent.atomic.AtomicBoolean unapplied = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param operations the template whose collections the transactions cover; its
     * {@link StorhOperations#collectionsFolder()} holds the commit records
     */
    public StorhTransactionManager(StorhOperations operations) {
        Assert.notNull(operations, "'operations' must not be null");
        this.operations = operations;
        Path root = operations.collectionsFolder().toAbsolutePath().normalize();
        this.journal = new CommitJournal(root);
        this.key = resourceKey(root);
    }

    /**
     * Rolls forward every transaction that committed before a crash but was not fully applied,
     * oldest first, and removes what transactions that never committed left.
     * @throws DataAccessException when a commit record is damaged or cannot be applied (naming it)
     */
    @Override
    public void afterPropertiesSet() {
        int rolled = recover();
        if (rolled > 0) {
            LOG.warn("Rolled forward " + rolled + " storh transaction(s) committed before a crash in "
                    + this.journal.folder());
        }
    }

    /**
     * Runs the roll-forward of {@link #afterPropertiesSet()} now.
     * @return the number of transactions rolled forward
     */
    public int recover() {
        try {
            List<CommitJournal.Pending> pending = this.journal.pending();
            for (CommitJournal.Pending commit : pending) {
                TransactionCommit.rollForward(commit, this.operations::docStore, this.journal);
            }
            return pending.size();
        }
        catch (RuntimeException ex) {
            throw translate(ex);
        }
    }

    /**
     * @return the key this manager's transactions are bound under, for the root
     */
    @Override
    public Object getResourceFactory() {
        return this.key;
    }

    /**
     * @return the folder of the commit records, {@code <root>/.storh/transactions}
     */
    public Path getJournalFolder() {
        return this.journal.folder();
    }

    static Key resourceKey(Path root) {
        return new Key(root.toAbsolutePath().normalize());
    }

    /** The key transactions on one root are bound under. */
    record Key(Path root) {
    }

    /** What is bound for a transaction: its state. */
    record TransactionHolder(StorhTransaction transaction) {
    }

    /** Spring's transaction object: the holder bound to the thread when this begins, if any. */
    private static final class TransactionObject implements SmartTransactionObject {

        private TransactionHolder holder;

        @Override
        public boolean isRollbackOnly() {
            return this.holder != null && this.holder.transaction().isRollbackOnly();
        }

        @Override
        public void flush() {
            // writes wait for the commit
        }

    }

    @Override
    protected Object doGetTransaction() {
        TransactionObject object = new TransactionObject();
        object.holder = (TransactionHolder) TransactionSynchronizationManager.getResource(this.key);
        return object;
    }

    @Override
    protected boolean isExistingTransaction(Object transaction) {
        return ((TransactionObject) transaction).holder != null;
    }

    @Override
    protected void doBegin(Object transaction, TransactionDefinition definition) {
        int isolation = definition.getIsolationLevel();
        if (isolation == TransactionDefinition.ISOLATION_REPEATABLE_READ
                || isolation == TransactionDefinition.ISOLATION_SERIALIZABLE) {
            throw new InvalidIsolationLevelException("storh transactions give READ_COMMITTED isolation; "
                    + definition.getName() + " asks for " + (isolation == TransactionDefinition.ISOLATION_SERIALIZABLE
                            ? "SERIALIZABLE" : "REPEATABLE_READ"));
        }
        TransactionObject object = (TransactionObject) transaction;
        object.holder = new TransactionHolder(new StorhTransaction(UuidV7.generate(), definition.isReadOnly()));
        TransactionSynchronizationManager.bindResource(this.key, object.holder);
    }

    @Override
    protected Object doSuspend(Object transaction) {
        ((TransactionObject) transaction).holder = null;
        return TransactionSynchronizationManager.unbindResource(this.key);
    }

    @Override
    protected void doResume(Object transaction, Object suspendedResources) {
        TransactionSynchronizationManager.bindResource(this.key, suspendedResources);
    }

    @Override
    protected void doCommit(DefaultTransactionStatus status) {
        StorhTransaction transaction = ((TransactionObject) status.getTransaction()).holder.transaction();
        if (!transaction.hasWrites()) {
            return;
        }
        if (this.unapplied.get()) {
            applyEarlierCommits(transaction);
        }
        try {
            TransactionCommit.commit(transaction, this.journal);
        }
        catch (TransactionCommit.AppliedPartly ex) {
            // The commit stands: apply it now, before any later commit can write over its records.
            this.unapplied.set(true);
            try {
                recover();
                this.unapplied.set(false);
                return;
            }
            catch (RuntimeException again) {
                ex.getCause().addSuppressed(again);
            }
            throw new TransactionSystemException("storh transaction " + transaction.id() + " committed (its commit"
                    + " record is durable) but applying its writes failed: " + ex.getCause().getMessage() + "; it is"
                    + " applied before the next commit on " + this.journal.folder().getParent().getParent()
                    + " or when the transaction manager next starts there", ex.getCause());
        }
        catch (RuntimeException ex) {
            throw translate(ex);
        }
    }

    @Override
    protected void doRollback(DefaultTransactionStatus status) {
        // nothing reached the files: dropping the transaction's state discards its writes
    }

    @Override
    protected void doSetRollbackOnly(DefaultTransactionStatus status) {
        ((TransactionObject) status.getTransaction()).holder.transaction().setRollbackOnly();
    }

    @Override
    protected void doCleanupAfterCompletion(Object transaction) {
        TransactionSynchronizationManager.unbindResourceIfPossible(this.key);
        ((TransactionObject) transaction).holder = null;
    }

    /**
     * Applies the commit records of earlier transactions whose writes failed to apply, so that a
     * later commit never lands before them (and is never overwritten by their roll-forward).
     * @throws TransactionSystemException when they still cannot be applied; nothing of
     * {@code transaction} is written then
     */
    private void applyEarlierCommits(StorhTransaction transaction) {
        try {
            recover();
            this.unapplied.set(false);
        }
        catch (RuntimeException ex) {
            throw new TransactionSystemException("Cannot commit storh transaction " + transaction.id() + ": an earlier"
                    + " committed transaction in " + this.journal.folder() + " could not be applied yet ("
                    + ex.getMessage() + "); nothing of this transaction was written", ex);
        }
    }

    private RuntimeException translate(RuntimeException ex) {
        DataAccessException translated = this.translator.translateExceptionIfPossible(ex);
        return (translated != null) ? translated : ex;
    }

}

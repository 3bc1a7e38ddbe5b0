package dev.storh.spring.transaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.doc.DocStore;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * Commits and rolls forward transactions: under the write locks of every collection a transaction
 * touched (taken in collection name order, so two commits never wait for each other in a circle),
 * checks it against what other writers did since it read, writes its commit record durably, applies
 * its writes through the DocStores (each record file written atomically, indexes kept) and
 * deletes the commit record. A transaction of one write needs no commit record: its one record
 * file is replaced atomically, as by a save outside a transaction.
 * <p>
 * Stateless; thread-safe as far as the stores are.
 */
final class TransactionCommit {

    private TransactionCommit() {
    }

    /**
     * @param transaction the transaction, with writes
     * @param journal the root's commit records
     * @throws OptimisticLockingFailureException when a record it read and then wrote was changed or
     * deleted by another writer since; nothing is written
     * @throws DuplicateKeyException when a record it read as absent and then wrote was created by
     * another writer since, or a unique index already holds one of its values for another record;
     * nothing is written
     */
    static void commit(StorhTransaction transaction, CommitJournal journal) {
        List<DocStore> stores = transaction.stores();
        List<BufferedWrite> writes = transaction.allWrites();
        underLocks(stores, 0, () -> {
            checkObservations(transaction, stores);
            checkUnique(transaction, stores);
            if (writes.size() == 1) {
                // one record file, replaced atomically, is all or nothing without a commit record
                apply(stores, writes);
                return;
            }
            String name = journal.write(transaction.id(), writes);
            try {
                apply(stores, writes);
                journal.remove(name);
            }
            catch (RuntimeException ex) {
                throw new AppliedPartly(ex);
            }
        });
    }

    /** The commit record is durable but applying the writes failed: the commit stands, to roll forward. */
    static final class AppliedPartly extends RuntimeException {

        private static final long serialVersionUID = 1L;

        AppliedPartly(RuntimeException cause) {
            super(cause);
        }

    }

    /**
     * Rolls forward one commit record left by a crash.
     * @param pending the record
     * @param stores opens a collection by name
     * @param journal the root's commit records
     */
    static void rollForward(CommitJournal.Pending pending, Function<String, DocStore> stores, CommitJournal journal) {
        Map<String, DocStore> byName = new java.util.TreeMap<>();
        pending.writes().forEach((w) -> byName.computeIfAbsent(w.collection(), stores));
        List<DocStore> locked = new ArrayList<>(byName.values());
        underLocks(locked, 0, () -> {
            if (!journal.contains(pending.name())) {
                return; // applied and removed by its own commit meanwhile: applying it again would undo later ones
            }
            apply(locked, pending.writes());
            journal.remove(pending.name());
        });
    }

    private static void underLocks(List<DocStore> stores, int next, Runnable action) {
        if (next == stores.size()) {
            action.run();
            return;
        }
        stores.get(next).withWriteLock(() -> {
            underLocks(stores, next + 1, action);
            return null;
        });
    }

    private static void checkObservations(StorhTransaction transaction, List<DocStore> stores) {
        Map<String, DocStore> byName = byName(stores);
        for (StorhTransaction.Observation seen : transaction.readThenWritten()) {
            Optional<StorageRecord> current = byName.get(seen.collection()).get(seen.id());
            if (seen.stillAsObserved(current)) {
                continue;
            }
            String where = "record " + seen.id() + " in collection '" + seen.collection() + "'";
            if (!seen.existed()) {
                throw new DuplicateKeyException("Cannot commit transaction " + transaction.id() + ": " + where
                        + " was absent when the transaction read it and was created by another writer since");
            }
            throw new OptimisticLockingFailureException("Cannot commit transaction " + transaction.id() + ": " + where
                    + (current.isEmpty() ? " was deleted" : " was modified") + " by another writer since the transaction"
                    + " read it; nothing was written, retry the transaction");
        }
    }

    /**
     * Checks the transaction's puts against the unique indexes as the store will be after the
     * commit, the same way {@link DocStore#putMany} checks the batch that applies them: a value
     * held by a record the transaction deletes or rewrites without it is free.
     */
    private static void checkUnique(StorhTransaction transaction, List<DocStore> stores) {
        for (DocStore store : stores) {
            Map<String, Map<String, String>> pending = new HashMap<>();
            Map<String, Map<String, Object>> after = new HashMap<>();
            Map<String, BufferedWrite> writes = transaction.writes(store.collection());
            writes.values().forEach((w) -> after.put(w.id(), w.isDelete() ? Map.of() : w.data()));
            for (BufferedWrite write : writes.values()) {
                if (write.isDelete()) {
                    continue;
                }
                try {
                    store.indexes().checkUnique(write.id(), write.data(), pending, after);
                }
                catch (UniqueConstraintException ex) {
                    throw new DuplicateKeyException("Cannot commit transaction " + transaction.id() + " in collection '"
                            + store.collection() + "': " + ex.getMessage() + "; nothing was written", ex);
                }
            }
        }
    }

    /** Applies the writes store by store: deletes first (freeing unique values), then the puts. */
    private static void apply(List<DocStore> stores, List<BufferedWrite> writes) {
        for (DocStore store : stores) {
            List<Map<String, Object>> puts = new ArrayList<>();
            for (BufferedWrite write : writes) {
                if (!write.collection().equals(store.collection())) {
                    continue;
                }
                if (write.isDelete()) {
                    store.delete(write.id());
                }
                else {
                    Map<String, Object> item = new LinkedHashMap<>();
                    item.put("id", write.id());
                    item.put("data", write.data());
                    puts.add(item);
                }
            }
            if (!puts.isEmpty()) {
                store.putMany(puts);
            }
        }
    }

    private static Map<String, DocStore> byName(List<DocStore> stores) {
        Map<String, DocStore> byName = new HashMap<>();
        stores.forEach((s) -> byName.put(s.collection(), s));
        return byName;
    }

}

package dev.storh.spring.transaction;

import java.nio.file.Path;
import java.util.Random;

import dev.storh.spring.data.core.StorhTemplate;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * The child JVM of {@link StorhTransactionCrashTests}: rolls forward what a previous kill left,
 * prints {@code READY <next transaction>}, then commits transactions until killed, printing
 * {@code COMMITTED <n> <items>} after each commit returned. Transaction {@code n} inserts 1 to 40
 * {@link Item}s with {@code txn = n}, rewrites the ledger marker to {@code n}, creates marker
 * {@code n} and deletes marker {@code n - 1}.
 */
public final class TransactionCrashChild {

    static final String LEDGER = markerId(0xffffffffffffL);

    private TransactionCrashChild() {
    }

    static String markerId(long txn) {
        return String.format("00000000-0000-7000-8000-%012x", txn);
    }

    public static void main(String[] args) {
        Path root = Path.of(args[0]);
        Random random = new Random(Long.parseLong(args[1]));
        StorhTemplate template = new StorhTemplate(root);
        StorhTransactionManager manager = new StorhTransactionManager(template);
        manager.afterPropertiesSet();
        TransactionTemplate transactions = new TransactionTemplate(manager);
        long first = template.findById(LEDGER, Marker.class).map((m) -> m.txn() + 1).orElse(1L);
        System.out.println("READY " + first);
        for (long n = first;; n++) {
            long txn = n;
            int items = 1 + random.nextInt(40);
            transactions.executeWithoutResult((status) -> {
                for (int i = 0; i < items; i++) {
                    template.insert(new Item(null, txn, items, i));
                }
                template.save(new Marker(LEDGER, txn));
                template.insert(new Marker(markerId(txn), txn));
                template.deleteById(markerId(txn - 1), Marker.class);
            });
            System.out.println("COMMITTED " + txn + " " + items);
        }
    }

}

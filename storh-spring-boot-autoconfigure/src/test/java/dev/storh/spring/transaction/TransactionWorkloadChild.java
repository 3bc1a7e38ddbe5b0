package dev.storh.spring.transaction;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import dev.storh.spring.data.core.StorhTemplate;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * The child JVM of {@link StorhTransactionWorkloadCrashTests}: rolls forward what a previous kill
 * left, prints {@code READY .}, then runs {@code threads} threads committing transactions until
 * killed. Thread {@code t} owns the slots {@link #slotId slotId(t, 0..SLOTS-1)}; each of its
 * transactions puts (blind saves) and deletes 1 to 6 distinct slots and rewrites the thread's
 * ledger marker to the transaction's number. Unique values are drawn in part from a pool shared by
 * every thread, so some commits fail with a duplicate key. Before each commit the thread prints
 * {@code B <t> <seq> <op>;<op>...} (an op is {@code P <slot> <u> <kind> <r> <v>} or {@code D <slot>}),
 * after it returned {@code A <t> <seq>}, after it failed {@code F <t> <seq> <exception>}; every line
 * ends with {@code " ."} so that a line torn by the kill is recognised.
 */
public final class TransactionWorkloadChild {

    static final int SLOTS = 12;

    static final int POOL = 16;

    private TransactionWorkloadChild() {
    }

    static String slotId(int thread, int slot) {
        return String.format("00000000-0001-7000-8%03x-%012x", thread, slot);
    }

    static String ledgerId(int thread) {
        return String.format("00000000-0002-7000-8000-%012x", thread);
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        StorhTemplate template = new StorhTemplate(root);
        StorhTransactionManager manager = new StorhTransactionManager(template);
        manager.afterPropertiesSet();
        TransactionTemplate transactions = new TransactionTemplate(manager);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            long first = template.findById(ledgerId(t), Marker.class).map((m) -> m.txn() + 1).orElse(1L);
            workers.add(new Thread(() -> work(template, transactions, thread, first, new Random(seed * 31 + thread))));
        }
        print("READY");
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
    }

    private static void work(StorhTemplate template, TransactionTemplate transactions, int thread, long first, Random rnd) {
        for (long seq = first;; seq++) {
            long txn = seq;
            List<String> ops = new ArrayList<>();
            Set<Integer> slots = new LinkedHashSet<>();
            int wanted = 1 + rnd.nextInt(6);
            while (slots.size() < wanted) {
                slots.add(rnd.nextInt(SLOTS));
            }
            Set<String> pooled = new LinkedHashSet<>();
            int i = 0;
            for (int slot : slots) {
                if (rnd.nextInt(5) == 0) {
                    ops.add("D " + slot);
                }
                else {
                    String u = "u-" + thread + "-" + txn + "-" + i;
                    String shared = "p" + rnd.nextInt(POOL);
                    if (rnd.nextInt(4) == 0 && pooled.add(shared)) {
                        u = shared;
                    }
                    ops.add("P " + slot + " " + u + " " + rnd.nextInt(5) + " " + rnd.nextInt(1000) + " v-" + thread + "-" + txn
                            + "-" + i);
                }
                i++;
            }
            print("B " + thread + " " + txn + " " + String.join(";", ops));
            try {
                transactions.executeWithoutResult((status) -> {
                    for (String op : ops) {
                        String[] f = op.split(" ");
                        String id = slotId(thread, Integer.parseInt(f[1]));
                        if (f[0].equals("D")) {
                            template.deleteById(id, Slot.class);
                        }
                        else {
                            template.save(new Slot(id, f[2], Long.parseLong(f[3]), Long.parseLong(f[4]), f[5]));
                        }
                    }
                    template.save(new Marker(ledgerId(thread), txn));
                });
                print("A " + thread + " " + txn);
            }
            catch (RuntimeException e) {
                print("F " + thread + " " + txn + " " + e.getClass().getSimpleName());
            }
        }
    }

    private static synchronized void print(String line) {
        System.out.println(line + " .");
        System.out.flush();
    }

}

package dev.storh.reliability;

import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.queue.Queue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The invariants a store must hold after a crash ({@link CrashHarnessTest}) or a simulated power
 * cut ({@link PowerCutTest}), checked against what {@link CrashWorkload} acknowledged: every
 * acknowledged write present with its last value, acknowledged deletes gone, index answers equal a
 * scan, verify clean, no temp file after open, no completed job back, every unfinished job
 * claimable after requeueTimedOut.
 */
final class CrashChecks {

    private CrashChecks() {
    }

    /**
     * @param root a copy of the workload's root after a crash
     * @param ledger what the workload acknowledged
     * @param engines the engines to check (letters of {@link CrashWorkload#ENGINES})
     * @return what is wrong; settles the ledger to what was found
     */
    static List<String> check(Path root, AckLedger ledger, Set<String> engines) {
        List<String> failures = new ArrayList<>();
        try (DocStore docs = engines.contains("D") ? DocStore.open(root, CrashWorkload.DOCS) : null;
                SegmentedLog log = engines.contains("L") ? SegmentedLog.open(root, CrashWorkload.LOG) : null;
                Queue queue = engines.contains("Q") ? Queue.open(root, CrashWorkload.QUEUE) : null) {
            if (docs != null) {
                CrashWorkload.defineIndexes(docs);
            }
            try {
                for (Path opened : Stream.<dev.storh.store.Store<?, ?, ?>>of(docs, log, queue).filter(java.util.Objects::nonNull)
                        .map(dev.storh.store.Store::directory).toList()) {
                    try (Stream<Path> files = Files.walk(opened)) {
                        files.map(Path::toString).filter(p -> p.contains(".tmp"))
                                .forEach(p -> failures.add("temp file after open: " + p));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (docs != null) {
                checkDocs(docs, ledger, failures);
            }
            if (log != null) {
                Map<String, Map<String, Object>> logData = new HashMap<>();
                log.stream().forEach(r -> logData.put(r.id(), r.data()));
                compare("L", values(logData), id -> log.get(id).map(r -> (String) r.data().get("s")), ledger, failures);
                log.verify().errors().forEach(e -> failures.add("log verify: " + e));
            }
            if (queue != null) {
                checkQueue(queue, ledger, failures);
            }
        }
        return failures;
    }

    private static void checkDocs(DocStore docs, AckLedger ledger, List<String> failures) {
        Map<String, Map<String, Object>> docData = new HashMap<>();
        docs.stream().forEach(r -> docData.put(r.id(), r.data()));
        compare("D", values(docData), id -> docs.get(id).map(r -> (String) r.data().get("s")), ledger, failures);
        indexAnswers(docs, docData, failures);
        docs.verify().errors().forEach(e -> failures.add("DocStore verify: " + e));
    }

    private static void checkQueue(Queue queue, AckLedger ledger, List<String> failures) {
        queue.verify().errors().forEach(e -> failures.add("queue verify: " + e));
        queue.requeueTimedOut(Duration.ZERO);
        long pending = queue.counts().pending();
        if (queue.counts().processing() != 0) {
            failures.add("claims left after requeueTimedOut(0): " + queue.counts());
        }
        Set<String> claimable = new HashSet<>();
        queue.claimMany((int) pending + 10).forEach(r -> claimable.add(r.id()));
        if (claimable.size() != pending) {
            failures.add("pending " + pending + " but " + claimable.size() + " claimable");
        }
        Map<String, String> observed = new HashMap<>();
        for (String id : ledger.ids("Q")) {
            observed.put(id, claimable.contains(id) ? AckLedger.UNFINISHED : AckLedger.GONE);
        }
        for (String id : claimable) {
            if (!observed.containsKey(id)) {
                failures.add("queue: unknown job " + id + " claimable");
            }
        }
        observed.forEach((id, state) -> {
            Set<String> allowed = ledger.allowed("Q", id, AckLedger.GONE);
            if (!allowed.contains(state)) {
                failures.add("queue job " + id + (state.equals(AckLedger.UNFINISHED)
                        ? ": completed (acknowledged) but claimable again" : ": unfinished (acknowledged) but not claimable"));
            }
        });
        ledger.settle("Q", observed);
    }

    private static Map<String, String> values(Map<String, Map<String, Object>> data) {
        Map<String, String> v = new HashMap<>();
        data.forEach((id, d) -> v.put(id, (String) d.get("s")));
        return v;
    }

    private static void compare(String engine, Map<String, String> onDisk,
            java.util.function.Function<String, java.util.Optional<String>> get, AckLedger ledger, List<String> failures) {
        Set<String> ids = new TreeSet<>(ledger.ids(engine));
        ids.addAll(onDisk.keySet());
        Map<String, String> observed = new HashMap<>();
        for (String id : ids) {
            String found = onDisk.getOrDefault(id, AckLedger.GONE);
            Set<String> allowed = ledger.allowed(engine, id, AckLedger.GONE);
            if (!allowed.contains(found)) {
                failures.add(engine + " " + id + ": found " + found + ", acknowledged "
                        + ledger.acked.get(engine).getOrDefault(id, "(never)") + ", allowed " + allowed);
            }
            String byGet = get.apply(id).orElse(AckLedger.GONE);
            if (!byGet.equals(found)) {
                failures.add(engine + " " + id + ": get() says " + byGet + ", stream() says " + found);
            }
            observed.put(id, found);
        }
        ledger.settle(engine, observed);
    }

    private static void indexAnswers(DocStore docs, Map<String, Map<String, Object>> data, List<String> failures) {
        for (long kind = 0; kind < 5; kind++) {
            long k = kind;
            expectSame("kind=" + k, ids(docs.query().where("kind").eq(k).get()),
                    scan(data, d -> Long.valueOf(k).equals(d.get("kind"))), failures);
            for (int t = 0; t < 3; t++) {
                String tag = "t" + t;
                expectSame("kind=" + k + " and tag=" + tag, ids(docs.query().where("kind").eq(k).where("tag").eq(tag).get()),
                        scan(data, d -> Long.valueOf(k).equals(d.get("kind")) && tag.equals(d.get("tag"))), failures);
            }
        }
        for (long lo = 0; lo < 1000; lo += 250) {
            long l = lo;
            expectSame("r in [" + l + "," + (l + 300) + ")", ids(docs.query().where("r").between(l, l + 299).get()),
                    scan(data, d -> ((Number) d.get("r")).longValue() >= l && ((Number) d.get("r")).longValue() <= l + 299), failures);
        }
        Map<Object, List<String>> byUnique = data.entrySet().stream()
                .collect(Collectors.groupingBy(e -> e.getValue().get("u"), Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
        byUnique.forEach((u, holders) -> {
            if (holders.size() > 1) {
                failures.add("unique u=" + u + " held by " + holders);
            }
        });
        data.entrySet().stream().limit(25).forEach(e -> expectSame("u=" + e.getValue().get("u"),
                ids(docs.query().where("u").eq(e.getValue().get("u")).get()), Set.of(e.getKey()), failures));
    }

    private static Set<String> ids(List<StorageRecord> records) {
        return records.stream().map(StorageRecord::id).collect(Collectors.toSet());
    }

    private static Set<String> scan(Map<String, Map<String, Object>> data, java.util.function.Predicate<Map<String, Object>> p) {
        return data.entrySet().stream().filter(e -> p.test(e.getValue())).map(Map.Entry::getKey).collect(Collectors.toSet());
    }

    private static void expectSame(String query, Set<String> index, Set<String> scan, List<String> failures) {
        if (!index.equals(scan)) {
            Set<String> missing = new TreeSet<>(scan);
            missing.removeAll(index);
            Set<String> extra = new TreeSet<>(index);
            extra.removeAll(scan);
            failures.add("index answer for " + query + " differs from a scan: missing " + missing + ", extra " + extra);
        }
    }

}

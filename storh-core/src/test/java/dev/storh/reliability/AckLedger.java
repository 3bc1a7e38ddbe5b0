package dev.storh.reliability;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the parent of {@link CrashWorkload} knows from the child's stdout: per engine the last
 * acknowledged value of each id ({@code -} = deleted, for the queue {@code P} = unfinished and
 * {@code -} = completed) and the writes in flight when the child died, which may or may not have
 * reached the disk.
 */
final class AckLedger {

    static final String GONE = "-";
    static final String UNFINISHED = "P";

    /** engine letter (D, L, Q) → id → acknowledged value. */
    final Map<String, Map<String, String>> acked = new HashMap<>();
    /** engine + thread → the in-flight write's id → value. */
    private final Map<String, Map<String, String>> inFlight = new HashMap<>();
    final List<String> errors = new java.util.ArrayList<>();
    long acknowledgedOps;
    boolean sawReady;
    /** The maintenance operation the child had begun and not ended (its last {@code M} line), or {@code null}. */
    String maintenance;

    AckLedger() {
        for (String e : List.of("D", "L", "Q")) {
            acked.put(e, new HashMap<>());
        }
    }

    /** Reads one stdout line of the child; a line without the closing {@code " ."} was torn by the kill. */
    void accept(String raw) {
        if (!raw.endsWith(" .")) {
            return;
        }
        String line = raw.substring(0, raw.length() - 2);
        String[] f = line.split(" ");
        switch (f[0]) {
            case "READY" -> sawReady = true;
            case "M" -> maintenance = f[1].equals("begin") ? f[2] : null;
            case "ERR" -> errors.add(line);
            case "B" -> {
                Map<String, String> values = new LinkedHashMap<>();
                for (int i = 5; i < f.length; i++) {
                    int eq = f[i].indexOf('=');
                    String value = f[i].substring(eq + 1);
                    if (f[1].equals("Q")) {
                        value = f[4].equals("enqueue") ? UNFINISHED : GONE;
                    }
                    values.put(f[i].substring(0, eq), value);
                }
                inFlight.put(f[1] + f[2], values);
            }
            case "A" -> {
                if (line.contains("UNEXPECTED-SUCCESS")) {
                    errors.add("a write that broke a unique index was accepted: " + line);
                }
                Map<String, String> done = inFlight.remove(f[1] + f[2]);
                if (done != null) {
                    // an enqueue acknowledged after another thread completed the job (the acks print in
                    // any order) does not bring it back: an enqueue is a job's first event
                    done.forEach((id, value) -> {
                        if (f[1].equals("Q") && value.equals(UNFINISHED)) {
                            acked.get(f[1]).putIfAbsent(id, value);
                        } else {
                            acked.get(f[1]).put(id, value);
                        }
                    });
                    acknowledgedOps++;
                }
            }
            case "F" -> inFlight.remove(f[1] + f[2]);
            default -> {
            }
        }
    }

    /** @return every value the id may have on disk: the acknowledged one and any in flight */
    Set<String> allowed(String engine, String id, String absent) {
        Set<String> ok = new HashSet<>();
        ok.add(acked.get(engine).getOrDefault(id, absent));
        inFlight.forEach((key, values) -> {
            if (key.startsWith(engine) && values.containsKey(id)) {
                ok.add(values.get(id));
            }
        });
        return ok;
    }

    /** @return every id the ledger knows for the engine, acknowledged or in flight */
    Set<String> ids(String engine) {
        Set<String> ids = new HashSet<>(acked.get(engine).keySet());
        inFlight.forEach((key, values) -> {
            if (key.startsWith(engine)) {
                ids.addAll(values.keySet());
            }
        });
        return ids;
    }

    /** After a checked round: what was observed on disk becomes the acknowledged state. */
    void settle(String engine, Map<String, String> observed) {
        acked.get(engine).putAll(observed);
    }

    void clearInFlight() {
        inFlight.clear();
    }
}

package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.reliability.SyscallTrace.Call;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The durability order on the real file system, read from {@code strace -f -y} of one operation
 * in a child JVM ({@link StraceChild}): every renamed file's data is fsynced before the rename, the
 * target folder is fsynced after it (and after a delete), appended bytes are fsynced before the call returns, and a log
 * folder is fsynced after a new segment is created and before the manifest naming it replaces the
 * old one; a roll's sparse index (seek hints) is renamed into place only after its bytes are fsynced,
 * but its folder's fsync may wait for the next roll. The DocStore's index value files and range deltas are derived data that reach the disk
 * lazily: their renames and deletes need no fsync in the operation, but the writer marker must stay
 * in place through it (a crash then makes the next open rebuild the indexes). A record file may be
 * renamed into place or unlinked lazily only after the batch journal's append holding the put or
 * delete was fsynced (docs/batch-journal.md), with the marker in place too. Skipped, saying why,
 * where strace is missing or may not trace ({@code .ci/run} installs it).
 */
class StraceOrderTest {

    private static final String SYSCALLS = "%file,write,pwrite64,writev,fsync,fdatasync,ftruncate";

    @TempDir
    Path temp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"put", "putMany", "delete", "reindex", "logPut", "appendMany", "logRoll",
        "logCompact", "enqueue", "queueCompact"})
    void durabilityOrderOfOneOperation(String op) throws Exception {
        String unavailable = straceUnavailable(temp);
        if (unavailable != null) {
            System.out.println("StraceOrderTest skipped: " + unavailable);
            Assumptions.abort(unavailable);
        }
        Path root = temp.resolve("root").toAbsolutePath();
        Files.createDirectories(root);
        Path out = temp.resolve("trace.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder("strace", "-f", "-qq", "-y", "-s", "8", "-e", "trace=" + SYSCALLS, "-o",
                out.toString(), java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                StraceChild.class.getName(), root.toString(), op).redirectErrorStream(true)
                .redirectOutput(temp.resolve("child.log").toFile()).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("child under strace ended").isTrue();
        assertThat(p.exitValue()).as(Files.readString(temp.resolve("child.log"))).isZero();
        Path kept = Files.createDirectories(Path.of("target", "reliability")).resolve("strace-" + op + ".txt");
        Files.copy(out, kept, StandardCopyOption.REPLACE_EXISTING); // evidence for a failure
        List<Call> calls = SyscallTrace.parse(Files.readAllLines(out));
        List<Call> window = window(calls);
        List<String> problems = problems(window, op);
        System.out.printf("strace %s: %d syscalls in the operation, %d fsyncs, %d renames%n", op, window.size(),
                window.stream().filter(c -> c.isSync() && c.ok()).count(),
                window.stream().filter(c -> c.isRename() && c.ok()).count());
        assertThat(problems).as("durability order of " + op + " (trace " + kept.toAbsolutePath() + ")").isEmpty();
    }

    /** @return the calls between the child's BEGIN and END marker calls */
    private static List<Call> window(List<Call> calls) {
        int begin = -1;
        int end = -1;
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).args().contains("STRACE-BEGIN")) {
                begin = i;
            } else if (calls.get(i).args().contains("STRACE-END")) {
                end = i;
            }
        }
        assertThat(begin).as("BEGIN marker in the trace").isNotNegative();
        assertThat(end).as("END marker in the trace").isGreaterThan(begin);
        return calls.subList(begin + 1, end);
    }

    static List<String> problems(List<Call> window, String op) {
        List<String> problems = new ArrayList<>();
        List<Call> ok = window.stream().filter(Call::ok).toList();
        if (ok.stream().noneMatch(Call::isSync)) {
            problems.add("no fsync at all");
        }
        boolean lazyIndexWrites = false;
        for (Call rename : ok.stream().filter(Call::isRename).toList()) {
            List<String> names = rename.strings();
            if (names.size() < 2 || rename.args().contains("RENAME_EXCHANGE")) {
                continue; // a folder exchange (index swap): its files were synced before, checked below
            }
            String from = names.get(0);
            String to = names.get(1);
            if (isLazyIndexFile(to)) {
                lazyIndexWrites = true;
                continue;
            }
            if (journaledBefore(ok, rename, to)) {
                lazyIndexWrites = true; // a record of a batch the journal holds: its file is made durable later
                continue;
            }
            Call lastWrite = last(ok, c -> c.isWrite() && from.equals(c.fdPath()) && c.end() < rename.start());
            if (lastWrite != null && first(ok, c -> c.isSync() && from.equals(c.fdPath())
                    && c.start() > lastWrite.end() && c.end() < rename.start()) == null) {
                problems.add("rename " + from + " -> " + to + " without an fsync of its data after the last write");
            }
            String folder = Path.of(to).getParent().toString();
            if (!isSeekHint(to) && first(ok, c -> c.isSync() && folder.equals(c.fdPath()) && c.start() > rename.end()) == null) {
                problems.add("rename to " + to + " not followed by an fsync of " + folder);
            }
        }
        for (Call unlink : ok.stream().filter(c -> c.name().startsWith("unlink")).toList()) {
            List<String> names = unlink.strings();
            String gone = names.isEmpty() ? "" : names.get(names.size() - 1);
            if (gone.contains(".tmp") || !gone.startsWith("/")) {
                continue; // a temp file or a file in a temp folder, or a name relative to a folder descriptor
            }
            if (isLazyIndexFile(gone) || journaledBefore(ok, unlink, gone)) {
                lazyIndexWrites = true; // an index file, or a record whose delete the journal holds
                continue;
            }
            String folder = Path.of(gone).getParent().toString();
            if (first(ok, c -> c.isSync() && folder.equals(c.fdPath()) && c.start() > unlink.end()) == null) {
                problems.add("delete of " + gone + " not followed by an fsync of " + folder);
            }
        }
        for (Call write : ok.stream().filter(c -> c.isWrite() && c.fdPath() != null && isData(c.fdPath())).toList()) {
            if (first(ok, c -> c.isSync() && write.fdPath().equals(c.fdPath()) && c.start() > write.end()) == null
                    && ok.stream().noneMatch(c -> c.isRename() && c.strings().contains(write.fdPath()))) {
                problems.add("write to " + write.fdPath() + " returned to the caller without an fsync");
            }
        }
        if (lazyIndexWrites) {
            ok.stream().filter(c -> c.name().startsWith("unlink")).flatMap(c -> c.strings().stream())
                    .filter(n -> n.contains("/.storh/writers/"))
                    .forEach(n -> problems.add("index files written lazily while the writer marker " + n + " was removed"));
        }
        Set<String> seen = new HashSet<>();
        for (Call created : ok.stream().filter(c -> c.name().startsWith("open") && c.args().contains("O_CREAT")).toList()) {
            List<String> names = created.strings();
            String file = names.isEmpty() ? "" : names.get(names.size() - 1);
            if (!file.contains("/segments/seg-") || !file.endsWith(".ndjson") || !seen.add(file)) {
                continue; // not a segment, or opened again (to append) after its creation
            }
            String folder = Path.of(file).getParent().toString();
            Call manifest = first(ok, c -> c.isRename() && c.start() > created.end()
                    && c.strings().size() >= 2 && c.strings().get(1).endsWith("/manifest.jsonc"));
            if (manifest == null) {
                problems.add("new segment " + file + " never named by a manifest");
            } else if (first(ok, c -> c.isSync() && folder.equals(c.fdPath()) && c.start() > created.end()
                    && c.end() < manifest.start()) == null) {
                problems.add("manifest names " + file + " before its folder " + folder + " was fsynced");
            }
        }
        if (op.equals("logRoll") && ok.stream().noneMatch(c -> c.name().startsWith("open") && c.args().contains("O_CREAT")
                && c.args().contains("/segments/seg-"))) {
            problems.add("logRoll created no new segment (the check above saw nothing)");
        }
        return problems;
    }

    /**
     * @param change a rename that puts a record file in place, or an unlink that removes one
     * @param record the record file
     * @return whether the change comes after the collection's batch journal's last write before it
     *     was fsynced (the journal holds the put or delete durably; the file's change may reach the
     *     disk lazily, and the writer marker must stay until it does)
     */
    private static boolean journaledBefore(List<Call> ok, Call change, String record) {
        if (!record.contains("/data/")) {
            return false;
        }
        String journal = record.substring(0, record.indexOf("/data/")) + "/.storh/batch-journal";
        Call write = last(ok, c -> c.isWrite() && journal.equals(c.fdPath()) && c.end() < change.start());
        return write != null && first(ok, c -> c.isSync() && journal.equals(c.fdPath()) && c.start() > write.end()
                && c.end() < change.start()) != null;
    }

    /** DocStore index files (value files, range deltas) that may reach the disk after the call returns. */
    private static boolean isLazyIndexFile(String path) {
        return path.contains("/.storh/indexes/entries/") && !path.contains("/data/");
    }

    /**
     * A roll's sparse index ({@code segments/seg-N.idx.jsonc}): its bytes must be durable before its
     * rename (checked above, so no reader ever finds a torn one), but its rename needs no fsync of
     * {@code segments/} in the operation. It only holds seek hints: a power cut that takes the rename
     * leaves the sealed segment without an index, which this library and the original both read as
     * "scan from the start", and the next roll's fsync of {@code segments/} makes it durable. The new
     * segment the same roll creates is still checked below: its folder is fsynced before the manifest
     * naming it replaces the old one.
     */
    private static boolean isSeekHint(String path) {
        return path.contains("/segments/seg-") && path.endsWith(".idx.jsonc");
    }

    /** Append-only files whose writes must be fsynced before the call returns. */
    private static boolean isData(String path) {
        return path.endsWith("/queue.log") || (path.contains("/segments/seg-") && path.endsWith(".ndjson"))
                || path.endsWith("/.storh/batch-journal");
    }

    private static Call first(List<Call> calls, java.util.function.Predicate<Call> p) {
        return calls.stream().filter(p).findFirst().orElse(null);
    }

    private static Call last(List<Call> calls, java.util.function.Predicate<Call> p) {
        return calls.stream().filter(p).reduce((a, b) -> b).orElse(null);
    }

    /** @return why strace cannot be used here, or null when it can */
    static String straceUnavailable(Path temp) {
        try {
            Process p = new ProcessBuilder("strace", "-f", "-qq", "-o", temp.resolve("probe.txt").toString(), "true")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "strace cannot trace here: " + out.trim();
            }
            return null;
        } catch (java.io.IOException e) {
            return "strace is not installed (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}

package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Writer prefixes name this process's pid and differ between all instances of a process, also
 * when many threads open at once (200,000 random 32-bit names would repeat a few times): a shared
 * prefix would let one instance take another's marker and temp files for its own.
 */
class WriterPrefixTest {

    @Test
    void prefixesNameThePidAndNeverRepeatInAProcessAcrossThreads() throws Exception {
        String pid = Long.toString(ProcessHandle.current().pid());
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 50_000; i++) {
                    seen.add(WriterMarkers.newWriterPrefix());
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(seen).hasSize(200_000);
        Set<String> pids = new HashSet<>();
        for (String p : seen) {
            assertThat(p).matches("\\d+\\.[0-9a-f]{8}");
            pids.add(p.substring(0, p.indexOf('.')));
        }
        assertThat(pids).containsExactly(pid);
    }
}

package dev.storh.log;

import java.nio.file.Path;
import java.util.Map;

/** Main class run in a child JVM by {@link SegmentedLogProcessTest}. */
public final class LogChildProcess {

    private LogChildProcess() {
    }

    /**
     * @param args {@code append <root> <collection> <count> <writer>} or {@code compact-loop <root> <collection>}
     */
    public static void main(String[] args) {
        Path root = Path.of(args[1]);
        SegmentedLogOptions options = SegmentedLogOptions.builder().maxSegmentBytes(Long.parseLong(args[3])).build();
        try (SegmentedLog log = SegmentedLog.open(root, args[2], options)) {
            if (args[0].equals("append")) {
                int count = Integer.parseInt(args[4]);
                for (int i = 0; i < count; i++) {
                    log.put(Map.of("writer", args[5], "i", (long) i));
                }
            } else {
                System.out.println("compacting");
                System.out.flush();
                while (true) {
                    log.compact();
                }
            }
        }
    }
}

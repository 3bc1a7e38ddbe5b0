package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.fs.LocalFiles;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment reader's buffer is never larger than the bytes it may read, and still reads every line
 * whole (growing for lines longer than it), stops at its limit and reports a final fragment as
 * unterminated.
 */
class SegmentReaderTest {

    @TempDir
    Path dir;

    private record Read(long offset, String line, boolean terminated) {
    }

    private List<Read> readAll(String file, long start, long limit, int bufferBytes) throws IOException {
        List<Read> out = new ArrayList<>();
        try (StoreFiles.Input in = LocalFiles.at(dir).openInput(file)) {
            SegmentReader reader = new SegmentReader(in, start, limit, bufferBytes);
            while (reader.next()) {
                out.add(new Read(reader.lineOffset(), new String(reader.line(), StandardCharsets.UTF_8), reader.terminated()));
            }
        }
        return out;
    }

    @Test
    void aLargeBufferRequestOnASmallFileReadsEveryLineAndTheUnterminatedTail() throws IOException {
        String a = "a".repeat(10) + "\n";
        String b = "b".repeat(300) + "\n"; // longer than the 64-byte floor and than a buffer sized to a short limit
        String c = "c".repeat(5);
        Files.writeString(dir.resolve("seg.ndjson"), a + b + c);
        long size = a.length() + b.length() + c.length();

        List<Read> whole = readAll("seg.ndjson", 0, size, 256 * 1024);
        assertThat(whole).containsExactly(new Read(0, a, true), new Read(a.length(), b, true),
                new Read(a.length() + b.length(), c, false));

        assertThat(readAll("seg.ndjson", a.length(), size, 256 * 1024)).as("from the second line")
                .containsExactly(new Read(a.length(), b, true), new Read(a.length() + b.length(), c, false));
        assertThat(readAll("seg.ndjson", 0, a.length() + 100, 256 * 1024)).as("a limit inside the long line")
                .containsExactly(new Read(0, a, true), new Read(a.length(), "b".repeat(100), false));
        assertThat(readAll("seg.ndjson", size, size, 256 * 1024)).as("nothing to read").isEmpty();
        assertThat(readAll("seg.ndjson", 0, Long.MAX_VALUE, 16)).as("no limit, a tiny buffer").isEqualTo(whole);
    }
}

package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.fs.FramedLine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Line envelopes: the spec's bytes (§2.4) and decoding rules (§5 statement 27). */
class LogLineTest {

    private static final Path FILE = Path.of("seg-000001.ndjson");

    private static byte[] framed(String json) {
        return FramedLine.encode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test // §2.4
    void putAndDeleteLinesAreTheOriginalsBytes() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("type", "user.created");
        data.put("n", 1L);
        data.put("f", 1.0);
        data.put("path", "a/b");
        data.put("name", "Zoë");
        assertThat(new String(LogLine.encodePut("01890a5d-ac00-7000-8000-000000000001", data), StandardCharsets.UTF_8))
                .isEqualTo("128\tb8a13eb7\t{\"op\":\"put\",\"id\":\"01890a5d-ac00-7000-8000-000000000001\",\"data\":"
                        + "{\"type\":\"user.created\",\"n\":1,\"f\":1.0,\"path\":\"a/b\",\"name\":\"Zoë\"}}\n");
        Map<String, Object> second = new LinkedHashMap<>();
        second.put("type", "x");
        second.put("empty", List.of());
        second.put("obj", Map.of());
        assertThat(new String(LogLine.encodePut("01890a5d-ac01-7000-8000-000000000002", second), StandardCharsets.UTF_8))
                .isEqualTo("96\t81338845\t{\"op\":\"put\",\"id\":\"01890a5d-ac01-7000-8000-000000000002\",\"data\":"
                        + "{\"type\":\"x\",\"empty\":[],\"obj\":{}}}\n");
        assertThat(new String(LogLine.encodeDelete("01890a5d-ac01-7000-8000-000000000002"), StandardCharsets.UTF_8))
                .isEqualTo("59\tdbf5e364\t{\"op\":\"delete\",\"id\":\"01890a5d-ac01-7000-8000-000000000002\"}\n");
        assertThat(new String(LogLine.encodePut("01890a5d-ac01-7000-8000-000000000002", Map.of()), StandardCharsets.UTF_8))
                .endsWith("\"data\":[]}\n");
    }

    @Test // statement 27
    void decodingFollowsTheOriginalsReader() {
        byte[] canonical = LogLine.encodePut("01890a5d-ac00-7000-8000-000000000001", Map.of("k", "v"));
        LogLine.Envelope env = LogLine.decode(canonical, FILE, 0, true);
        assertThat(env.canonical()).isTrue();
        assertThat(env.data()).isEqualTo(Map.of("k", "v"));
        // CRLF endings are accepted
        String crlf = new String(canonical, StandardCharsets.UTF_8).replace("\n", "\r\n");
        assertThat(LogLine.decode(crlf.getBytes(StandardCharsets.UTF_8), FILE, 0, true).id())
                .isEqualTo("01890a5d-ac00-7000-8000-000000000001");
        assertThatThrownBy(() -> LogLine.decode("broken\n".getBytes(StandardCharsets.UTF_8), FILE, 7, true))
                .isInstanceOf(StorageException.class).hasMessageContaining("Malformed").hasMessageContaining("seg-000001.ndjson:7");
        assertThatThrownBy(() -> LogLine.decode("2\tdeadbeef\t{}\n".getBytes(StandardCharsets.UTF_8), FILE, 0, true))
                .hasMessageContaining("Corrupt");
        assertThatThrownBy(() -> LogLine.decode(framed("{}"), FILE, 0, true)).hasMessageContaining("record envelope");
        Map<String, Object> dropped = LogLine.decode(framed("{\"op\":\"put\",\"id\":\"01890a5d-ac00-7000-8000-000000000001\","
                + "\"data\":{\"0\":\"drop\",\"keep\":\"yes\",\"-1\":1,\"01\":2}}"), FILE, 0, true).data();
        assertThat(dropped).isEqualTo(Map.of("keep", "yes", "01", 2L));
        assertThat(LogLine.decode(framed("{\"id\":\"x\",\"op\":\"put\",\"data\":[1,2]}"), FILE, 0, true).data()).isEmpty();
        LogLine.Envelope reordered = LogLine.decode(framed("{\"id\":\"01890a5d-ac00-7000-8000-000000000001\",\"op\":\"put\"}"),
                FILE, 0, true);
        assertThat(reordered.canonical()).isFalse();
        assertThat(reordered.data()).isEmpty();
    }
}

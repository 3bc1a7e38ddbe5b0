package dev.storh.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FramedLineTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void checksumsMatchTheSpecsVectors() {
        assertThat(FramedLine.checksum(utf8(""))).isEqualTo("02cc5d05");
        assertThat(FramedLine.checksum(utf8("{}"))).isEqualTo("18473489");
        assertThat(FramedLine.checksum(utf8("abc"))).isEqualTo("32d153ff");
    }

    @Test
    void encodesTheOriginalsDeleteLine() {
        byte[] json = utf8("{\"op\":\"delete\",\"id\":\"01890a5d-ac01-7000-8000-000000000002\"}\n");
        assertThat(new String(FramedLine.encode(json), StandardCharsets.UTF_8))
                .isEqualTo("59\tdbf5e364\t{\"op\":\"delete\",\"id\":\"01890a5d-ac01-7000-8000-000000000002\"}\n");
    }

    @Test
    void decodeChecksLengthChecksumAndTermination() {
        byte[] line = FramedLine.encode(utf8("{\"a\":\"é\"}"));
        assertThat(new String(FramedLine.decode(line, true), StandardCharsets.UTF_8)).isEqualTo("{\"a\":\"é\"}");
        byte[] noLf = java.util.Arrays.copyOf(line, line.length - 1);
        assertThat(FramedLine.decode(noLf, false)).isEqualTo(utf8("{\"a\":\"é\"}"));
        assertThatThrownBy(() -> FramedLine.decode(noLf, true)).isInstanceOfSatisfying(FramedLine.FramingException.class,
                e -> assertThat(e.problem()).isEqualTo(FramedLine.Problem.TORN));
        byte[] flipped = line.clone();
        flipped[flipped.length - 3] ^= 1;
        assertThatThrownBy(() -> FramedLine.decode(flipped, true)).isInstanceOfSatisfying(FramedLine.FramingException.class,
                e -> assertThat(e.problem()).isEqualTo(FramedLine.Problem.CORRUPT));
        assertThatThrownBy(() -> FramedLine.decode(utf8("12\tnot-a-line\n"), true))
                .isInstanceOfSatisfying(FramedLine.FramingException.class,
                        e -> assertThat(e.problem()).isEqualTo(FramedLine.Problem.MALFORMED));
        assertThatThrownBy(() -> FramedLine.encode(utf8("{\"a\":\n1}"))).hasMessageContaining("line feed");
    }
}

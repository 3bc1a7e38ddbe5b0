package dev.storh.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The reads that both decoders of a put line's bytes share ({@link LineCursor}): what each reads, where it
 * leaves the cursor, and the shapes it refuses so that the line goes to the strict decoder.
 */
class LineCursorTest {

    private static LineCursor at(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return new LineCursor(b, 0, b.length);
    }

    @Test
    void bytesAndLiteralsAreTakenOnlyWhenTheyAreThere() {
        LineCursor c = at("{true,nul");
        assertThat(c.take('[')).isFalse();
        assertThat(c.take('{')).isTrue();
        assertThat(c.position()).isEqualTo(1);
        assertThat(c.literal("false")).isFalse();
        assertThat(c.literal("true")).isTrue();
        assertThat(c.peek()).isEqualTo((byte) ',');
        c.skip();
        assertThat(c.literal("null")).as("cut off by the end").isFalse();
        assertThat(c.position()).isEqualTo(6);
        assertThat(c.done()).isFalse();
        assertThat(c.literal("nul")).isTrue();
        assertThat(c.done()).isTrue();
        assertThat(c.take('}')).isFalse();
        byte[] b = "[null]".getBytes(StandardCharsets.UTF_8);
        LineCursor bounded = new LineCursor(b, 1, 4);
        assertThat(bounded.literal("null")).as("past the given end").isFalse();
    }

    @Test
    void integersAreReadWithTheirValueAndDigitCount() {
        LineCursor c = at("-123456789012345678,");
        assertThat(c.integer()).isEqualTo(18);
        assertThat(c.integerValue()).isEqualTo(-123_456_789_012_345_678L);
        assertThat(c.peek()).isEqualTo((byte) ',');
        c = at("0");
        assertThat(c.integer()).isEqualTo(1);
        assertThat(c.integerValue()).isZero();
        c = at("-0.5");
        assertThat(c.integer()).isEqualTo(1);
        assertThat(c.integerValue()).isZero();
        assertThat(c.take('.')).isTrue();
        assertThat(c.skipDigits()).isEqualTo(1);
        assertThat(c.latin1(0)).isEqualTo("-0.5");
        assertThat(at("12345678901234567890").integer()).as("past a long: the digits are counted").isEqualTo(20);
        assertThat(at("01").integer()).as("a leading zero").isZero();
        assertThat(at("-01").integer()).as("a leading zero").isZero();
        assertThat(at("-").integer()).as("no digit").isZero();
        assertThat(at("-x").integer()).as("no digit").isZero();
    }

    @Test
    void numberTailsAndExponentsAreSeen() {
        LineCursor c = at("1e5,");
        c.integer();
        assertThat(c.atExponent()).isTrue();
        c = at("1.5E-3}");
        c.integer();
        assertThat(c.atExponent()).isFalse();
        assertThat(c.skipNumberTail()).isTrue();
        assertThat(c.latin1(0)).isEqualTo("1.5E-3");
        assertThat(c.peek()).isEqualTo((byte) '}');
        assertThat(c.skipNumberTail()).isFalse();
        assertThat(c.skipDigits()).isZero();
    }

    @Test
    void asciiStringsAreReadWithEveryEscapeResolved() {
        String json = "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u2028\\u0041\",";
        for (boolean utf8 : new boolean[] {true, false}) {
            LineCursor c = at(json);
            assertThat(c.string(utf8)).isEqualTo("a\"b\\c/d\b\f\n\r\t\u00e9\u2028A");
            assertThat(c.peek()).as("past the closing quote").isEqualTo((byte) ',');
            assertThat(at("\"plain\"").string(utf8)).isEqualTo("plain");
            assertThat(at("\"\"").string(utf8)).isEmpty();
        }
    }

    @Test
    void nonAsciiTextIsReadOnlyWhenAskedForAndWithoutEscapes() {
        assertThat(at("\"caf\u00e9 \u65e5 \ud83d\ude00\"").string(true)).isEqualTo("caf\u00e9 \u65e5 \ud83d\ude00");
        assertThat(at("\"caf\u00e9\"").string(false)).isNull();
        assertThat(at("\"caf\u00e9 \\n\"").string(true)).as("non-ASCII with an escape").isNull();
        assertThat(at("\"\\n caf\u00e9\"").string(true)).as("an escape, then non-ASCII").isNull();
        byte[] cut = {'"', (byte) 0xe2, (byte) 0x82, '"'};
        assertThat(new LineCursor(cut, 0, cut.length).string(true)).as("malformed UTF-8").isNull();
        assertThat(at("\"\ufffd\"").string(true)).as("a replacement character reads as malformed").isNull();
    }

    @Test
    void stringsOfOtherShapesAreRefused() {
        for (boolean utf8 : new boolean[] {true, false}) {
            for (String other : new String[] {"x", "\"open", "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"",
                "\"\\ud83d\\ude00\"", "\"\\udc00\"", "\"a\\", "\"\\n\u0001\"", "\"\\n\\\""}) {
                assertThat(at(other).string(utf8)).as(other + " utf8 " + utf8).isNull();
            }
        }
        assertThat(at("\"\\u00e").string(true)).as("cut off in a \\u escape").isNull();
    }
}

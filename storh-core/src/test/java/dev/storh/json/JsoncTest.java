package dev.storh.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsoncTest {

    private static Map<String, Object> decode(String text) {
        return Jsonc.decodeObject(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void commentsAndTrailingCommasAreAcceptedOutsideStrings() {
        Map<String, Object> doc = decode("""
                // leading comment
                {
                  "url": "https://example.test//not-comment", // trailing
                  "block": "/* not comment */",
                  /* a block
                     comment */
                  "items": ["one", "two",],
                }
                /* after */
                """);
        assertThat(doc).containsEntry("url", "https://example.test//not-comment")
                .containsEntry("block", "/* not comment */")
                .containsEntry("items", List.of("one", "two"));
        assertThat(doc.keySet()).containsExactly("url", "block", "items");
    }

    @Test
    void anUnterminatedBlockCommentCommentsOutTheRestOfTheDocument() {
        assertThat(decode("{\"a\":1}\n/* crash mid-write")).containsEntry("a", 1L);
        assertThat(decode("{\"a\":1} /* unterminated } with a brace")).containsEntry("a", 1L);
        assertThat(decode("{\"a\":\"/* in a string\"} // line\n/* open")).containsEntry("a", "/* in a string");
        assertThat(decode("{\"a\":1} /* closed */ /* open ")).containsEntry("a", 1L);
        assertThatThrownBy(() -> decode("{\"a\":1 /* swallows the closing brace }")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> decode("/* only a comment")).isInstanceOf(StorageException.class)
                .hasMessageContaining("must decode to an object");
    }

    @Test
    void numbersBecomeLongBigIntegerOrDouble() {
        Map<String, Object> doc = decode("{\"i\":5,\"big\":12345678901234567890,\"f\":1.0,\"e\":1E2,\"neg\":-0.0}");
        assertThat(doc.get("i")).isEqualTo(5L);
        assertThat(doc.get("big")).isEqualTo(new BigInteger("12345678901234567890"));
        assertThat(doc.get("f")).isEqualTo(1.0d);
        assertThat(doc.get("e")).isEqualTo(100.0d);
        assertThat(doc.get("neg")).isEqualTo(-0.0d);
    }

    @Test
    void escapesAndDuplicateKeysDecodeAsTheOriginalDoes() {
        Map<String, Object> doc = decode("{\"quote\":\"a\\\"b\",\"path\":\"c\\\\d\",\"k\":1,\"k\":2,\"\":\"empty\",}");
        assertThat(doc).containsEntry("quote", "a\"b").containsEntry("path", "c\\d").containsEntry("k", 2L)
                .containsEntry("", "empty");
    }

    @Test
    void nonObjectsAndIntegerLikeTopLevelKeysAreRefused() {
        for (String bad : List.of("[]", "[1]", "5", "\"str\"", "{\"1\":\"one\"}", "{\"0\":\"zero\",\"a\":1}",
                "{\"-1\":1}", "", "  ")) {
            assertThatThrownBy(() -> decode(bad)).as(bad).isInstanceOf(StorageException.class)
                    .hasMessageContaining("object");
        }
        assertThat(decode("{\"01\":1,\"-0\":2,\"1.0\":3,\"a\":{\"1\":4}}")).containsKeys("01", "-0", "1.0", "a");
        assertThat(decode("{}")).isEmpty();
    }

    @Test
    void aByteOrderMarkOrBrokenSyntaxFails() {
        byte[] bom = "\uFEFF{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Jsonc.decodeObject(bom)).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> decode("{ bad json")).isInstanceOf(JsoncSyntaxException.class);
        assertThatThrownBy(() -> decode("{\"id\":\"x\",\"da")).isInstanceOf(StorageException.class);
        assertThatThrownBy(() -> decode("{\"a\":[1,2,,]}")).isInstanceOf(JsoncSyntaxException.class);
        assertThatThrownBy(() -> decode("{'a':1}")).isInstanceOf(JsoncSyntaxException.class);
        assertThatThrownBy(() -> decode("{\"a\":1} # hash comment")).isInstanceOf(StorageException.class);
    }

    @Test
    void nestingIsLimitedTo511Containers() {
        String ok = "{\"a\":".repeat(510) + "{}" + "}".repeat(510);
        assertThat(decode(ok)).containsKey("a");
        String tooDeep = "{\"a\":".repeat(511) + "{}" + "}".repeat(511);
        assertThatThrownBy(() -> decode(tooDeep)).isInstanceOf(StorageException.class);
    }
}

package dev.storh.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValuesTest {

    @Test
    void compareIsTotalAndAntisymmetricAcrossTypes() {
        assertThat(Values.compare(null, null)).isZero();
        assertThat(Values.compare(false, true)).isNegative();
        assertThat(Values.compare(List.of("a"), List.of("b"))).isNotZero();
        Object[][] pairs = {{5L, "five"}, {List.of("a"), "text"}, {null, 0L}, {true, List.of(1L)}, {List.of("a"), List.of("b")}};
        for (Object[] p : pairs) {
            assertThat(Integer.signum(Values.compare(p[0], p[1]))).isEqualTo(-Integer.signum(Values.compare(p[1], p[0])));
            assertThat(Values.compare(p[0], p[0])).isZero();
        }
        // Numbers compare by exact value (a consistent order), not by their nearest doubles.
        assertThat(Values.compare(9007199254740993L, 9007199254740992.0)).isPositive();
        assertThat(Values.compare(Long.MAX_VALUE, new java.math.BigInteger("9223372036854775808"))).isNegative();
        assertThat(Values.compare(Long.MAX_VALUE, 0x1p63)).isNegative();
        assertThat(Values.compare(-0.0, 0L)).isZero();
        assertThat(Values.compare("é", "z")).isPositive(); // bytewise UTF-8, not UTF-16
        assertThat(Values.compare("\uFFFF", "🙂")).isNegative();
    }

    @Test
    void sortingFollowsTheOriginalsObservedOrder() {
        List<Object> values = new ArrayList<>(Arrays.asList(true, 10L, Map.of("a", 1L), "a", -1L, List.of(), null, "", 1.5,
                List.of(1L), false, "10", 0L, List.of(2L), "b", Map.of("a", 0L)));
        values.sort(Values::compare);
        assertThat(values).containsExactly("", "10", "a", "b", -1L, 0L, 1.5, 10L, List.of(1L), List.of(2L), List.of(), false,
                null, true, Map.of("a", 0L), Map.of("a", 1L));
    }

    @Test
    void identityIsTypeSensitive() {
        assertThat(Values.identical(1L, 1.0)).isFalse();
        assertThat(Values.identical(1, 1L)).isTrue();
        assertThat(Values.identical(List.of(1L, "x"), List.of(1L, "x"))).isTrue();
        assertThat(Values.identical(Map.of("a", 1L), Map.of("a", 1.0))).isFalse();
        assertThat(Values.identical(-0.0, 0.0)).isTrue();
        assertThat(Values.identical(null, null)).isTrue();
    }
}

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

    @Test
    void twoLongsCompareAsTheirExactDecimalsDo() {
        java.util.Random random = new java.util.Random(20261203L);
        List<Long> edges = List.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, (1L << 53) - 1, 1L << 53, (1L << 53) + 1,
                Long.MAX_VALUE - 1, Long.MAX_VALUE);
        List<Long> all = new java.util.ArrayList<>(edges);
        for (int i = 0; i < 200; i++) {
            all.add(random.nextLong());
            all.add((long) random.nextInt(1000) - 500);
        }
        for (long x : all) {
            for (long y : edges) {
                int viaDecimals = Integer.signum(Values.compare(java.math.BigDecimal.valueOf(x), java.math.BigDecimal.valueOf(y)));
                assertThat(Integer.signum(Values.compare(x, y))).as("%d vs %d", x, y).isEqualTo(viaDecimals)
                        .isEqualTo(Long.signum(Long.compare(x, y)));
                assertThat(Integer.signum(Values.compare(y, x))).isEqualTo(-viaDecimals);
                assertThat(Integer.signum(Values.compare(java.math.BigInteger.valueOf(x), y))).as("BigInteger %d vs %d", x, y)
                        .isEqualTo(viaDecimals);
            }
        }
    }

    @Test
    void normaliseKeepsTheModelsKindsAndConvertsTheOthers() {
        for (Object v : java.util.Arrays.asList(null, 5L, "s", 2.5, true, false, List.of(1L), java.util.Map.of())) {
            assertThat(Values.normalise(v)).isSameAs(v);
        }
        assertThat(Values.normalise(5)).isEqualTo(5L);
        assertThat(Values.normalise((short) 5)).isEqualTo(5L);
        assertThat(Values.normalise((byte) 5)).isEqualTo(5L);
        assertThat(Values.normalise(java.math.BigInteger.TEN)).isEqualTo(10L);
        assertThat(Values.normalise(java.math.BigInteger.TWO.pow(70))).isEqualTo(java.math.BigInteger.TWO.pow(70));
        assertThat(Values.normalise(0.1f)).isEqualTo(0.1);
    }

    /** UTF-8 byte order, the reference way: encode both (lone surrogates by code point, as no UTF-8 holds them). */
    private static int byCodePointsReference(String x, String y) {
        int[] a = x.codePoints().toArray();
        int[] b = y.codePoints().toArray();
        return Integer.signum(Arrays.compare(a, b));
    }

    @Test
    void compareUtf8IsCodePointOrderForSeededStringsWithSurrogatesAndLoneHalves() {
        long seed = System.nanoTime();
        java.util.Random random = new java.util.Random(seed);
        char[] pool = {'a', 'b', 'z', '\u00e9', '\u07ff', '\ud7ff', '\ud800', '\ud83d', '\udbff', '\udc00', '\ude00', '\udfff',
            '\ue000', '\uf8ff', '\ufffd', '\uffff'};
        for (int n = 0; n < 200_000; n++) {
            StringBuilder x = new StringBuilder();
            int length = random.nextInt(6);
            for (int i = 0; i < length; i++) {
                x.append(pool[random.nextInt(pool.length)]);
            }
            StringBuilder y = new StringBuilder(x.substring(0, random.nextInt(x.length() + 1)));
            int more = random.nextInt(4);
            for (int i = 0; i < more; i++) {
                y.append(pool[random.nextInt(pool.length)]);
            }
            String a = x.toString();
            String b = y.toString();
            assertThat(Integer.signum(Values.compareUtf8(a, b))).as("seed %d: %s vs %s", seed, a.chars().boxed().toList(),
                    b.chars().boxed().toList()).isEqualTo(byCodePointsReference(a, b));
        }
    }
}

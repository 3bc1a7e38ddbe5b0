package dev.storh.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.StorageException;
import dev.storh.doc.DocStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** String, element, case-insensitive and nested-path conditions, on a real store. */
class ConditionTest {

    @TempDir
    Path root;

    private static boolean matches(Condition c, Map<String, Object> data) {
        return c.matches("01890000-0000-7000-8000-000000000000", data);
    }

    private static Condition cond(String field, Operator op, boolean ignoreCase, Object... values) {
        return new Condition(FieldPath.of(field), op, Arrays.asList(values), ignoreCase);
    }

    @Test
    void stringOperatorsMatchStringsOnly() {
        Map<String, Object> data = Map.of("t", "The Hobbit", "n", 5L);
        assertThat(matches(cond("t", Operator.CONTAINS, false, "Hob"), data)).isTrue();
        assertThat(matches(cond("t", Operator.CONTAINS, false, "hob"), data)).isFalse();
        assertThat(matches(cond("t", Operator.CONTAINS, true, "hOB"), data)).isTrue();
        assertThat(matches(cond("t", Operator.SUFFIX, false, "bit"), data)).isTrue();
        assertThat(matches(cond("t", Operator.SUFFIX, false, "The"), data)).isFalse();
        assertThat(matches(cond("t", Operator.LIKE, false, "The*t"), data)).isTrue();
        assertThat(matches(cond("t", Operator.LIKE, false, "The"), data)).isFalse();
        assertThat(matches(cond("t", Operator.LIKE, true, "the *"), data)).isTrue();
        assertThat(matches(cond("t", Operator.LIKE, false, "The.Hobbit"), data)).as("dot is literal").isFalse();
        assertThat(matches(cond("t", Operator.REGEX, false, "H.bb"), data)).isTrue();
        assertThat(matches(cond("t", Operator.REGEX, true, "^the"), data)).isTrue();
        assertThat(matches(cond("n", Operator.CONTAINS, false, "5"), data)).as("numbers are not strings").isFalse();
        assertThat(matches(cond("missing", Operator.NOT_CONTAINS, false, "x"), data)).isTrue();
        assertThat(matches(cond("t", Operator.NOT_CONTAINS, false, "Hob"), data)).isFalse();
        assertThat(matches(cond("t", Operator.NOT_LIKE, false, "*Hobbit"), data)).isFalse();
        assertThat(matches(cond("n", Operator.NOT_LIKE, false, "*"), data)).isTrue();
    }

    @Test
    void caseFoldingFollowsLocaleRoot() {
        assertThat(matches(cond("s", Operator.EQ, true, "STRASSE"), Map.of("s", "straße"))).isTrue();
        assertThat(matches(cond("s", Operator.EQ, true, "ÄBC"), Map.of("s", "äbc"))).isTrue();
        // Locale.ROOT: dotted capital I folds to i, not Turkish dotless ı
        assertThat(matches(cond("s", Operator.EQ, true, "TITLE"), Map.of("s", "title"))).isTrue();
        // upper case first: dotless ı upper-cases to I, so it folds to i as well
        assertThat(matches(cond("s", Operator.EQ, true, "title"), Map.of("s", "tıtle"))).isTrue();
        assertThat(Condition.fold("İ")).isEqualTo("i̇");
        assertThat(matches(cond("s", Operator.IN, true, "x", "ABC"), Map.of("s", "abc"))).isTrue();
        assertThat(matches(cond("s", Operator.NEQ, true, "ABC"), Map.of("s", "abc"))).isFalse();
        assertThat(matches(cond("s", Operator.EQ, true, 1L), Map.of("s", 1L))).as("non-strings strictly").isTrue();
        assertThat(matches(cond("s", Operator.EQ, true, 1.0), Map.of("s", 1L))).isFalse();
    }

    @Test
    void elementOperatorsLookInsideLists() {
        Map<String, Object> data = Map.of("tags", List.of("rare", "signed"), "one", "rare");
        assertThat(matches(cond("tags", Operator.HAS, false, "rare"), data)).isTrue();
        assertThat(matches(cond("tags", Operator.HAS, true, "RARE"), data)).isTrue();
        assertThat(matches(cond("tags", Operator.HAS, false, "RARE"), data)).isFalse();
        assertThat(matches(cond("tags", Operator.EQ, false, "rare"), data)).as("eq stays strict").isFalse();
        assertThat(matches(cond("one", Operator.HAS, false, "rare"), data)).as("a string is no list").isFalse();
        assertThat(matches(cond("tags", Operator.NOT_HAS, false, "rare"), data)).isFalse();
        assertThat(matches(cond("absent", Operator.NOT_HAS, false, "rare"), data)).isTrue();
    }

    @Test
    void nestedPathsWalkObjectsAndListsWhileDottedKeysStayKeys() {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("publisher", Map.of("name", "Allen"));
        data.put("publisher.name", "dotted");
        data.put("reviews", List.of(Map.of("rating", 5L), Map.of("rating", 2L), "not an object"));
        FieldPath nested = FieldPath.of("publisher", "name");
        assertThat(nested.resolve(data)).containsExactly("Allen");
        assertThat(FieldPath.of("publisher.name").resolve(data)).containsExactly("dotted");
        assertThat(FieldPath.parse("publisher.name")).isEqualTo(nested);
        assertThat(FieldPath.of("reviews", "rating").resolve(data)).containsExactly(5L, 2L);
        Condition five = new Condition(FieldPath.of("reviews", "rating"), Operator.EQ, List.of(5L), false);
        assertThat(matches(five, data)).isTrue();
        Condition notTwo = new Condition(FieldPath.of("reviews", "rating"), Operator.NEQ, List.of(2L), false);
        assertThat(matches(notTwo, data)).as("no reached value may equal 2").isFalse();
        assertThat(FieldPath.of("publisher", "name", "x").resolve(data)).isEmpty();
        assertThatThrownBy(() -> FieldPath.parse("a..b")).isInstanceOf(StorageException.class)
                .hasMessageStartingWith("Query field cannot be empty.").hasMessageContaining("\"a..b\"");
        assertThatThrownBy(() -> FieldPath.of("publisher", " ")).isInstanceOf(StorageException.class)
                .hasMessageStartingWith("Query field cannot be empty.").hasMessageContaining("[publisher,  ]");
    }

    @Test
    void badOperandsFailNamingTheField() {
        assertThatThrownBy(() -> cond("title", Operator.REGEX, false, "(unclosed"))
                .isInstanceOf(StorageException.class).hasMessageContaining("regex on field title")
                .hasMessageContaining("(unclosed");
        assertThatThrownBy(() -> cond("title", Operator.CONTAINS, false, 5L))
                .isInstanceOf(StorageException.class).hasMessageContaining("contains on field title needs one string");
        assertThatThrownBy(() -> cond("n", Operator.GT, true, 5L))
                .isInstanceOf(StorageException.class).hasMessageContaining("gt on field n cannot ignore case");
    }

    @Test
    void storeAnswersNestedSortsAndIgnoresTheIndexForCaseInsensitiveAndNestedConditions() {
        try (DocStore store = DocStore.open(root, "books")) {
            store.indexes().field("title").range().field("publisher.name").sync();
            String a = store.put(book("The Hobbit", "Allen", "flat"), null).id();
            String b = store.put(book("the silmarillion", "Zed", "dotted"), null).id();
            String c = store.put(book("Dune", "Chilton", "Allen"), null).id();
            QueryBuilder ci = store.query().where("title").ignoringCase().prefix("THE");
            assertThat(ci.get()).extracting(r -> r.id()).containsExactly(a, b);
            assertThat(ci.explain().usesIndexes()).isFalse();
            assertThat(store.query().where("title").prefix("The").explain().usesIndexes()).isTrue();
            QueryBuilder nested = store.query().where(FieldPath.of("publisher", "name")).eq("Allen");
            assertThat(nested.get()).extracting(r -> r.id()).containsExactly(a);
            assertThat(nested.explain().usesIndexes()).as("the index on the dotted key does not serve the path").isFalse();
            QueryBuilder dotted = store.query().where("publisher.name").eq("Allen");
            assertThat(dotted.get()).extracting(r -> r.id()).containsExactly(c);
            assertThat(dotted.explain().usesIndexes()).isTrue();
            assertThat(store.query().orderBy(FieldPath.of("publisher", "name"), Direction.DESC).get())
                    .extracting(r -> r.id()).containsExactly(b, c, a);
            assertThat(store.query().where("title").regex("(?i)^the ").count()).isEqualTo(2);
            assertThat(store.query().where("tags").has("rare").get()).extracting(r -> r.id()).containsExactly(a);
        }
    }

    private static Map<String, Object> book(String title, String publisher, String dotted) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", title);
        data.put("publisher", Map.of("name", publisher));
        data.put("publisher.name", dotted);
        data.put("tags", title.equals("The Hobbit") ? List.of("rare") : List.of());
        return data;
    }

    @Test
    void aTopLevelEqOnAStringOrAnIntegerMatchesExactlyTheIdenticalValues() {
        List<Object> operands = Arrays.asList("published", "", "1", "01a23c39-b6d5-769e-907b-6c4da8112819", 1L, 0L, -5L, Long.MAX_VALUE);
        List<Object> stored = Arrays.asList("published", "Published", "", "1", 1, 1L, (short) 1, (byte) 1,
                java.math.BigInteger.ONE, java.math.BigInteger.TWO.pow(70), new java.math.BigDecimal("1"), new java.math.BigDecimal("1.0"),
                1.0, 1.0f, 0L, 0, -5, -5L, Long.MAX_VALUE, true, false, null, List.of("published"), List.of(1L),
                Map.of("a", 1L), "01a23c39-b6d5-769e-907b-6c4da8112819", new StringBuilder("published"));
        String id = "01a23c39-b6d5-769e-907b-6c4da8112819";
        int matched = 0;
        for (Object operand : operands) {
            Condition onField = new Condition("status", Operator.EQ, Arrays.asList(operand));
            Condition onId = new Condition("id", Operator.EQ, Arrays.asList(operand));
            assertThat(onField.matches(id, Map.of())).as("missing field, %s", operand).isFalse();
            assertThat(onId.matches(id, Map.of("id", "other"))).as("id, %s", operand).isEqualTo(Values.identical(id, operand));
            for (Object value : stored) {
                Map<String, Object> data = new java.util.HashMap<>();
                data.put("status", value);
                boolean expected = Values.identical(value, operand);
                assertThat(onField.matches(id, data)).as("%s (%s) eq %s", value, value == null ? null : value.getClass(), operand)
                        .isEqualTo(expected);
                assertThat(onField.matchesValue(value)).as("matchesValue %s eq %s", value, operand).isEqualTo(expected);
                matched += expected ? 1 : 0;
            }
        }
        assertThat(matched).as("matches among the pairs").isGreaterThan(10);
        assertThat(new Condition("status", Operator.EQ, List.of("published")).matches(id, Map.of("status", "published"))).isTrue();
        assertThat(new Condition("bucket", Operator.EQ, List.of(4)).matches(id, Map.of("bucket", 4L))).isTrue();
        assertThat(new Condition("bucket", Operator.EQ, List.of(4L)).matches(id, Map.of("bucket", 4.0))).isFalse();
    }
}

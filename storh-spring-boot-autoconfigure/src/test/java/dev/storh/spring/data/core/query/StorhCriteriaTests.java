package dev.storh.spring.data.core.query;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.data.domain.Sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Conditions and ordering over the JSON model (spec/docstore.md §3.2).
 */
class StorhCriteriaTests {

	private static final String ID_1 = "018bcfe5-6800-7286-af1e-f6f686dbda0b";

	private static final String ID_2 = "018bcfe5-6800-7286-af1e-f6f686dbda0c";

	private static final String ID_3 = "018bcfe5-6800-7286-af1e-f6f686dbda0d";

	@Test
	void numbersAreEqualByValueWhateverTheirJavaType() {
		StorhDocument document = document(ID_1, Map.of("n", 42L, "x", 0.1));

		assertThat(Criterion.is("n", 42).matches(document)).isTrue();
		assertThat(Criterion.is("n", 42.0).matches(document)).isTrue();
		assertThat(Criterion.is("n", new BigDecimal("42.00")).matches(document)).isTrue();
		assertThat(Criterion.is("n", BigInteger.valueOf(42)).matches(document)).isTrue();
		assertThat(Criterion.is("n", 43).matches(document)).isFalse();
		assertThat(Criterion.is("n", "42").matches(document)).isFalse();
		assertThat(Criterion.is("x", new BigDecimal("0.1")).matches(document)).isTrue();
		assertThat(Criterion.greaterThan("n", 41.5).matches(document)).isTrue();
		assertThat(Criterion.lessThan("n", 41.5).matches(document)).isFalse();
	}

	@Test
	void rangesNeedValuesOfTheSameKind() {
		StorhDocument document = document(ID_1, Map.of("name", "Lyon", "n", 5L));

		assertThat(Criterion.greaterThan("name", "Lille").matches(document)).isTrue();
		assertThat(Criterion.greaterThan("name", 3).matches(document)).isFalse();
		assertThat(Criterion.lessThan("name", 3).matches(document)).isFalse();
		assertThat(Criterion.between("n", 5, 5).matches(document)).isTrue();
		assertThat(Criterion.between("n", 6, 9).matches(document)).isFalse();
		assertThat(Criterion.greaterThan("missing", 0).matches(document)).isFalse();
	}

	@Test
	void missingAndNullValues() {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("nothing", null);
		StorhDocument document = document(ID_1, data);

		assertThat(Criterion.isNull("nothing").matches(document)).isTrue();
		assertThat(Criterion.isNull("absent").matches(document)).isTrue();
		assertThat(Criterion.is("absent", null).matches(document)).isTrue();
		assertThat(Criterion.isNotNull("nothing").matches(document)).isFalse();
		assertThat(Criterion.isNot("absent", "x").matches(document)).isTrue();
		assertThat(Criterion.in("absent", Arrays.asList("x", null)).matches(document)).isTrue();
		assertThat(Criterion.notIn("absent", List.of("x")).matches(document)).isTrue();
	}

	@Test
	void nestedPathsAndTheIdProperty() {
		StorhDocument document = new StorhDocument(ID_1, Map.of("address", Map.of("city", "Oslo"), "tags",
				List.of("a", "b")), "key");

		assertThat(document.valueAt("address.city")).isEqualTo("Oslo");
		assertThat(document.valueAt("address.zip")).isNull();
		assertThat(document.valueAt("tags.size")).isNull();
		assertThat(document.valueAt("key")).isEqualTo(ID_1);
		assertThat(Criterion.is("tags", List.of("a", "b")).matches(document)).isTrue();
		assertThat(Criterion.is("address", Map.of("city", "Oslo")).matches(document)).isTrue();
		assertThat(Criterion.startsWith("address.city", "os").ignoringCase().matches(document)).isTrue();
		assertThat(Criterion.startsWith("address.city", "os").matches(document)).isFalse();
	}

	@Test
	void criteriaAreOrsOfAnds() {
		StorhDocument lyon = document(ID_1, Map.of("country", "FR", "population", 520_000L));
		StorhDocument rome = document(ID_2, Map.of("country", "IT", "population", 2_800_000L));
		StorhDocument paris = document(ID_3, Map.of("country", "FR", "population", 2_100_000L));
		StorhCriteria criteria = StorhCriteria.where(Criterion.is("country", "FR"))
			.or(StorhCriteria.where(Criterion.is("country", "IT")))
			.and(Criterion.greaterThan("population", 1_000_000));

		assertThat(criteria.groups()).hasSize(2).allSatisfy((group) -> assertThat(group).hasSize(2));
		assertThat(criteria.matches(lyon)).isFalse();
		assertThat(criteria.matches(rome)).isTrue();
		assertThat(criteria.matches(paris)).isTrue();
		assertThat(criteria).hasToString(
				"(country EQUALS [FR] and population GREATER_THAN [1000000]) or (country EQUALS [IT] and population GREATER_THAN [1000000])");
	}

	@Test
	void badOperandsAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> Criterion.of("n", Criterion.Operator.IN, "FR"))
			.withMessageContaining("IN on 'n' needs a collection");
		assertThatIllegalArgumentException().isThrownBy(() -> Criterion.of("n", Criterion.Operator.BETWEEN, 1))
			.withMessageContaining("takes 2 value(s), got 1");
		assertThatIllegalArgumentException().isThrownBy(() -> Criterion.of("n", Criterion.Operator.STARTS_WITH, 4))
			.withMessageContaining("needs a string prefix");
		assertThatIllegalArgumentException().isThrownBy(() -> Criterion.is("", 1))
			.withMessageContaining("'path'");
	}

	@Test
	void comparatorSortsNullsLastThenById() {
		StorhDocument b = document(ID_2, Map.of("name", "b"));
		StorhDocument none = document(ID_1, Map.of());
		StorhDocument a = document(ID_3, Map.of("name", "a"));
		StorhDocument upperB = document("018bcfe5-6800-7286-af1e-f6f686dbda0a", Map.of("name", "B"));
		List<StorhDocument> documents = new ArrayList<>(List.of(b, none, a, upperB));

		documents.sort(StorhDocument.comparator(Sort.by("name")));
		assertThat(documents).containsExactly(upperB, a, b, none);
		documents.sort(StorhDocument.comparator(Sort.by(Sort.Order.desc("name"))));
		assertThat(documents).containsExactly(b, a, upperB, none);
		documents.sort(StorhDocument.comparator(Sort.by(Sort.Order.asc("name").ignoreCase().nullsFirst())));
		// "b" and "B" tie when ignoring case and then follow id order
		assertThat(documents).containsExactly(none, a, upperB, b);
		documents.sort(StorhDocument.comparator(Sort.unsorted()));
		assertThat(documents).containsExactly(upperB, none, b, a);
	}

	@Test
	void queryCarriesSortOffsetAndLimit() {
		StorhQuery query = StorhQuery.all().withSort(Sort.by("name")).withOffset(4).withLimit(2);

		assertThat(query.getSort()).isEqualTo(Sort.by("name"));
		assertThat(query.getOffset()).isEqualTo(4);
		assertThat(query.getLimit()).isEqualTo(2);
		assertThat(query.isLimited()).isTrue();
		assertThat(StorhQuery.all().isLimited()).isFalse();
		assertThat(StorhQuery.all().matches(document(ID_1, Map.of()))).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> StorhQuery.all().withLimit(-1))
			.withMessageContaining("'limit' must not be negative");
	}

	private static StorhDocument document(String id, Map<String, Object> data) {
		return new StorhDocument(id, data, "id");
	}

}

package dev.storh.spring.data.core.query;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.util.Assert;

/**
 * A condition on stored records in disjunctive normal form: a record matches when all
 * {@link Criterion criteria} of at least one group match, which is the shape of a derived query
 * such as {@code findByCountryAndPopulationGreaterThanOrNameStartingWith}.
 * Instances are immutable; {@link #and(Criterion)} and {@link #or(StorhCriteria)} return new
 * instances.
 */
public final class StorhCriteria {

	private final List<List<Criterion>> groups;

	private StorhCriteria(List<List<Criterion>> groups) {
		this.groups = groups;
	}

	/**
	 * @param criterion the first condition
	 * @return criteria holding one group with one condition
	 */
	public static StorhCriteria where(Criterion criterion) {
		Assert.notNull(criterion, "'criterion' must not be null");
		return new StorhCriteria(List.of(List.of(criterion)));
	}

	/**
	 * Add a condition that every match must also satisfy: {@code (A or B) and C} becomes
	 * {@code (A and C) or (B and C)}.
	 * @param criterion the condition
	 * @return new criteria
	 */
	public StorhCriteria and(Criterion criterion) {
		Assert.notNull(criterion, "'criterion' must not be null");
		List<List<Criterion>> result = new ArrayList<>(this.groups.size());
		for (List<Criterion> group : this.groups) {
			List<Criterion> extended = new ArrayList<>(group);
			extended.add(criterion);
			result.add(List.copyOf(extended));
		}
		return new StorhCriteria(List.copyOf(result));
	}

	/**
	 * Add alternatives: a record matching either this or {@code other} matches.
	 * @param other the alternative criteria
	 * @return new criteria
	 */
	public StorhCriteria or(StorhCriteria other) {
		Assert.notNull(other, "'other' must not be null");
		List<List<Criterion>> result = new ArrayList<>(this.groups);
		result.addAll(other.groups);
		return new StorhCriteria(List.copyOf(result));
	}

	/**
	 * The groups: a record matches when every condition of one group matches.
	 * @return unmodifiable list of non-empty unmodifiable groups, in declaration order
	 */
	public List<List<Criterion>> groups() {
		return this.groups;
	}

	/**
	 * @param document the document to test
	 * @return whether one group matches entirely
	 */
	public boolean matches(StorhDocument document) {
		for (List<Criterion> group : this.groups) {
			boolean all = true;
			for (Criterion criterion : group) {
				if (!criterion.matches(document)) {
					all = false;
					break;
				}
			}
			if (all) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return this.groups.stream()
			.map((group) -> group.stream().map(Criterion::toString).collect(Collectors.joining(" and ", "(", ")")))
			.collect(Collectors.joining(" or "));
	}

}

package dev.storh.spring.data.repository.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.data.core.query.StorhCriteria;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.Example;
import org.springframework.data.domain.ExampleMatcher;

/**
 * Turns a Query by Example probe into {@link StorhCriteria}, so examples run through the same
 * planner (and indexes) as derived queries. Each top-level property of the probe, as the entity
 * converter writes it (id and transient properties excluded), becomes one condition:
 * <ul>
 * <li>a {@code null} value is skipped ({@link ExampleMatcher.NullHandler#IGNORE}, the default) or
 * required to be null or missing ({@code INCLUDE});</li>
 * <li>a string matches exactly ({@code DEFAULT}, {@code EXACT}) or as a prefix ({@code STARTING});</li>
 * <li>any other value, nested objects and lists included, matches by strict equality.</li>
 * </ul>
 * {@code matchingAll()} ANDs the conditions, {@code matchingAny()} ORs them. Ignored paths and
 * property value transformers are honoured. {@code ENDING}, {@code CONTAINING} and {@code REGEX}
 * string matching and ignore-case are refused with an {@link InvalidDataAccessApiUsageException}
 * naming the property: storh cannot answer them from indexes or by prefix.
 */
final class StorhExampleCriteria {

	private StorhExampleCriteria() {
	}

	static StorhCriteria of(Example<?> example, StorhEntityConverter converter) {
		ExampleMatcher matcher = example.getMatcher();
		Map<String, Object> probe = converter.toData(example.getProbe());
		List<StorhCriteria> conditions = new ArrayList<>();
		for (Map.Entry<String, Object> property : probe.entrySet()) {
			String path = property.getKey();
			if (matcher.isIgnoredPath(path)) {
				continue;
			}
			ExampleMatcher.PropertySpecifier specifier = matcher.getPropertySpecifiers().hasSpecifierForPath(path)
					? matcher.getPropertySpecifiers().getForPath(path) : null;
			Object value = property.getValue();
			if (specifier != null) {
				Optional<Object> transformed = specifier.getPropertyValueTransformer().apply(Optional.ofNullable(value));
				value = transformed.orElse(null);
			}
			if (value == null) {
				if (matcher.getNullHandler() == ExampleMatcher.NullHandler.INCLUDE) {
					conditions.add(StorhCriteria.where(path).isNull());
				}
				continue;
			}
			conditions.add(condition(path, value, matcher, specifier, example));
		}
		if (conditions.isEmpty()) {
			return StorhCriteria.all();
		}
		StorhCriteria combined = conditions.get(0);
		for (int i = 1; i < conditions.size(); i++) {
			combined = matcher.isAllMatching() ? combined.and(conditions.get(i)) : combined.or(conditions.get(i));
		}
		return combined;
	}

	private static StorhCriteria condition(String path, Object value, ExampleMatcher matcher,
			ExampleMatcher.PropertySpecifier specifier, Example<?> example) {
		if (!(value instanceof String text)) {
			return StorhCriteria.where(path).is(value);
		}
		boolean ignoreCase = (specifier != null && specifier.getIgnoreCase() != null) ? specifier.getIgnoreCase()
				: matcher.isIgnoreCaseEnabled();
		if (ignoreCase) {
			throw unsupported(example, path, "ignore-case matching");
		}
		ExampleMatcher.StringMatcher stringMatcher = (specifier != null && specifier.getStringMatcher() != null)
				? specifier.getStringMatcher() : matcher.getDefaultStringMatcher();
		return switch (stringMatcher) {
			case DEFAULT, EXACT -> StorhCriteria.where(path).is(text);
			case STARTING -> StorhCriteria.where(path).startsWith(text);
			default -> throw unsupported(example, path, stringMatcher + " string matching");
		};
	}

	private static InvalidDataAccessApiUsageException unsupported(Example<?> example, String path, String what) {
		return new InvalidDataAccessApiUsageException("Query by Example on " + example.getProbeType().getName()
				+ " cannot use " + what + " for property '" + path
				+ "': storh supports exact and starting string matching, case-sensitive");
	}

}

package dev.storh.spring.data.repository.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.storh.query.FieldPath;
import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.data.core.query.StorhCriteria;

import org.springframework.data.domain.Example;
import org.springframework.data.domain.ExampleMatcher;

/**
 * Turns a Query by Example probe into {@link StorhCriteria}, so examples run through the same
 * planner (and indexes) as derived queries. Each property of the probe, as the entity converter
 * writes it (id and transient properties excluded), becomes one condition; a nested object is
 * walked into its properties, each a condition on its path ({@code publisher.name}):
 * <ul>
 * <li>a {@code null} value is skipped ({@link ExampleMatcher.NullHandler#IGNORE}, the default) or
 * required to be null or missing ({@code INCLUDE});</li>
 * <li>a string matches exactly ({@code DEFAULT}, {@code EXACT}), as a prefix ({@code STARTING}),
 * suffix ({@code ENDING}), part ({@code CONTAINING}) or Java regular expression ({@code REGEX}),
 * case-insensitively (case folding in {@code Locale.ROOT}) when the matcher ignores case;</li>
 * <li>any other value, lists included, matches by strict equality; an empty nested object
 * matches an empty object.</li>
 * </ul>
 * {@code matchingAll()} ANDs the conditions, {@code matchingAny()} ORs them. Ignored paths and
 * property value transformers are honoured, on dotted paths for nested properties. Only exact
 * and starting matches without ignore-case are served by indexes; the others read records.
 */
final class StorhExampleCriteria {

    private StorhExampleCriteria() {
    }

    static StorhCriteria of(Example<?> example, StorhEntityConverter converter) {
        ExampleMatcher matcher = example.getMatcher();
        List<StorhCriteria> conditions = new ArrayList<>();
        collect(List.of(), converter.toData(example.getProbe()), matcher, conditions);
        if (conditions.isEmpty()) {
            return StorhCriteria.all();
        }
        StorhCriteria combined = conditions.get(0);
        for (int i = 1; i < conditions.size(); i++) {
            combined = matcher.isAllMatching() ? combined.and(conditions.get(i)) : combined.or(conditions.get(i));
        }
        return combined;
    }

    private static void collect(List<String> parent, Map<?, ?> object, ExampleMatcher matcher,
            List<StorhCriteria> conditions) {
        for (Map.Entry<?, ?> property : object.entrySet()) {
            List<String> segments = new ArrayList<>(parent);
            segments.add(String.valueOf(property.getKey()));
            String path = String.join(".", segments);
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
            FieldPath field = new FieldPath(segments);
            if (value == null) {
                if (matcher.getNullHandler() == ExampleMatcher.NullHandler.INCLUDE) {
                    conditions.add(StorhCriteria.where(field).isNull());
                }
                continue;
            }
            if (value instanceof Map<?, ?> nested && !nested.isEmpty()) {
                collect(segments, nested, matcher, conditions);
                continue;
            }
            conditions.add(condition(field, value, matcher, specifier));
        }
    }

    private static StorhCriteria condition(FieldPath path, Object value, ExampleMatcher matcher,
            ExampleMatcher.PropertySpecifier specifier) {
        if (!(value instanceof String text)) {
            return StorhCriteria.where(path).is(value);
        }
        boolean ignoreCase = (specifier != null && specifier.getIgnoreCase() != null) ? specifier.getIgnoreCase()
                : matcher.isIgnoreCaseEnabled();
        StorhCriteria.Field where = ignoreCase ? StorhCriteria.where(path).ignoreCase() : StorhCriteria.where(path);
        ExampleMatcher.StringMatcher stringMatcher = (specifier != null && specifier.getStringMatcher() != null)
                ? specifier.getStringMatcher() : matcher.getDefaultStringMatcher();
        return switch (stringMatcher) {
            case DEFAULT, EXACT -> where.is(text);
            case STARTING -> where.startsWith(text);
            case ENDING -> where.endsWith(text);
            case CONTAINING -> where.contains(text);
            case REGEX -> where.regex(text);
        };
    }

}

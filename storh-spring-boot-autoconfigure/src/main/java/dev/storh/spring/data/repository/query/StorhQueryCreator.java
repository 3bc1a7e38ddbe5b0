package dev.storh.spring.data.repository.query;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.data.core.query.Criterion;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;

import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.ParameterAccessor;
import org.springframework.data.repository.query.parser.AbstractQueryCreator;
import org.springframework.data.repository.query.parser.Part;
import org.springframework.data.repository.query.parser.PartTree;
import org.springframework.util.Assert;

/**
 * Turns a parsed method name ({@link PartTree}) and the call's arguments into a
 * {@link StorhQuery}: each {@code Or} branch becomes a group of {@link Criterion criteria} joined by
 * {@code And}; the sort is the method name's {@code OrderBy} followed by a {@code Sort} or
 * {@code Pageable} argument.
 * <p>
 * Supported keywords ({@link #SUPPORTED_TYPES}): {@code Is}/{@code Equals} (or none),
 * {@code Not}, {@code IsNull}, {@code IsNotNull}/{@code NotNull}, {@code True}, {@code False},
 * {@code In}, {@code NotIn}, {@code GreaterThan}, {@code GreaterThanEqual}, {@code LessThan},
 * {@code LessThanEqual}, {@code After}, {@code Before}, {@code Between} (inclusive),
 * {@code StartingWith}; {@code IgnoreCase} on string properties with {@code Is}, {@code Not},
 * {@code In}, {@code NotIn} and {@code StartingWith}. Arguments are converted to the JSON model
 * with {@link StorhEntityConverter#toJsonValue(Object)}, so enums match their stored names and
 * dates their ISO text. One instance serves one call; not thread-safe.
 */
public class StorhQueryCreator extends AbstractQueryCreator<StorhQuery, StorhCriteria> {

	/** The {@link Part.Type}s storh evaluates; any other keyword fails at startup. */
	public static final Set<Part.Type> SUPPORTED_TYPES = Collections.unmodifiableSet(EnumSet.of(
			Part.Type.SIMPLE_PROPERTY, Part.Type.NEGATING_SIMPLE_PROPERTY, Part.Type.IS_NULL, Part.Type.IS_NOT_NULL,
			Part.Type.TRUE, Part.Type.FALSE, Part.Type.IN, Part.Type.NOT_IN, Part.Type.GREATER_THAN,
			Part.Type.GREATER_THAN_EQUAL, Part.Type.LESS_THAN, Part.Type.LESS_THAN_EQUAL, Part.Type.AFTER,
			Part.Type.BEFORE, Part.Type.BETWEEN, Part.Type.STARTING_WITH));

	/** The {@link Part.Type}s that honour {@code IgnoreCase}. */
	public static final Set<Part.Type> IGNORE_CASE_TYPES = Collections.unmodifiableSet(EnumSet.of(
			Part.Type.SIMPLE_PROPERTY, Part.Type.NEGATING_SIMPLE_PROPERTY, Part.Type.IN, Part.Type.NOT_IN,
			Part.Type.STARTING_WITH));

	private final StorhEntityConverter converter;

	/**
	 * @param tree the parsed method name, checked by {@link StorhPartTreeQuery}
	 * @param parameters the call's arguments
	 * @param converter converts arguments to the JSON model
	 */
	public StorhQueryCreator(PartTree tree, ParameterAccessor parameters, StorhEntityConverter converter) {
		super(tree, parameters);
		Assert.notNull(converter, "'converter' must not be null");
		this.converter = converter;
	}

	@Override
	protected StorhCriteria create(Part part, Iterator<Object> iterator) {
		return StorhCriteria.where(criterion(part, iterator));
	}

	@Override
	protected StorhCriteria and(Part part, StorhCriteria base, Iterator<Object> iterator) {
		return base.and(criterion(part, iterator));
	}

	@Override
	protected StorhCriteria or(StorhCriteria base, StorhCriteria criteria) {
		return base.or(criteria);
	}

	@Override
	protected StorhQuery complete(StorhCriteria criteria, Sort sort) {
		StorhQuery query = (criteria != null) ? StorhQuery.where(criteria) : StorhQuery.all();
		return query.withSort(sort);
	}

	/**
	 * Whether a part compares strings case-insensitively: {@code IgnoreCase} (or
	 * {@code AllIgnoreCase}) on a {@code String} property with a keyword of
	 * {@link #IGNORE_CASE_TYPES}.
	 * @param part the part
	 * @return whether to fold case
	 */
	static boolean ignoresCase(Part part) {
		return part.shouldIgnoreCase() != Part.IgnoreCaseType.NEVER
				&& part.getProperty().getLeafProperty().getType() == String.class
				&& IGNORE_CASE_TYPES.contains(part.getType());
	}

	private Criterion criterion(Part part, Iterator<Object> arguments) {
		String path = part.getProperty().toDotPath();
		Criterion criterion = switch (part.getType()) {
			case SIMPLE_PROPERTY -> Criterion.is(path, next(arguments));
			case NEGATING_SIMPLE_PROPERTY -> Criterion.isNot(path, next(arguments));
			case IS_NULL -> Criterion.isNull(path);
			case IS_NOT_NULL -> Criterion.isNotNull(path);
			case TRUE -> Criterion.is(path, Boolean.TRUE);
			case FALSE -> Criterion.is(path, Boolean.FALSE);
			case IN -> Criterion.in(path, candidates(part, arguments));
			case NOT_IN -> Criterion.notIn(path, candidates(part, arguments));
			case GREATER_THAN, AFTER -> Criterion.greaterThan(path, next(arguments));
			case GREATER_THAN_EQUAL -> Criterion.greaterThanOrEqual(path, next(arguments));
			case LESS_THAN, BEFORE -> Criterion.lessThan(path, next(arguments));
			case LESS_THAN_EQUAL -> Criterion.lessThanOrEqual(path, next(arguments));
			case BETWEEN -> Criterion.between(path, next(arguments), next(arguments));
			case STARTING_WITH -> Criterion.startsWith(path, prefix(part, arguments));
			default -> throw new IllegalArgumentException("Keyword " + part.getType() + " on property '" + path
					+ "' is not supported by storh; supported: " + SUPPORTED_TYPES);
		};
		return ignoresCase(part) ? criterion.ignoringCase() : criterion;
	}

	private Object next(Iterator<Object> arguments) {
		return this.converter.toJsonValue(arguments.next());
	}

	private List<?> candidates(Part part, Iterator<Object> arguments) {
		Object argument = arguments.next();
		Object value = this.converter.toJsonValue(argument);
		if (!(value instanceof List<?> list)) {
			throw new IllegalArgumentException("Keyword " + part.getType() + " on property '"
					+ part.getProperty().toDotPath() + "' needs a collection or array argument, got "
					+ ((argument != null) ? argument.getClass().getName() : "null"));
		}
		return list;
	}

	private String prefix(Part part, Iterator<Object> arguments) {
		Object value = next(arguments);
		if (!(value instanceof String text)) {
			throw new IllegalArgumentException("Keyword StartingWith on property '" + part.getProperty().toDotPath()
					+ "' needs a non-null string argument, got " + ((value != null) ? value.getClass().getName() : "null"));
		}
		return text;
	}

}

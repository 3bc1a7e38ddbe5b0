package dev.storh.spring.data.repository.query;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import dev.storh.query.FieldPath;
import dev.storh.query.Operator;
import dev.storh.spring.data.core.StorhEntityConverter;
import dev.storh.spring.data.core.query.PropertyPaths;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.core.PropertyPath;
import org.springframework.data.domain.Sort;
import org.springframework.data.repository.query.ParameterAccessor;
import org.springframework.data.repository.query.parser.AbstractQueryCreator;
import org.springframework.data.repository.query.parser.Part;
import org.springframework.data.repository.query.parser.PartTree;
import org.springframework.util.Assert;
import org.springframework.util.ObjectUtils;

/**
 * Turns a parsed method name ({@link PartTree}) and the call's arguments into a
 * {@link StorhQuery} over core conditions: each {@code Or} branch becomes one group of
 * {@link StorhCriteria} joined by {@code And}; the sort is the method name's {@code OrderBy}
 * followed by a {@code Sort} or {@code Pageable} argument.
 * <p>
 * Keywords ({@link #SUPPORTED_TYPES}) and the core operator each maps to:
 * <ul>
 * <li>{@code Is}/{@code Equals} (or none) → {@code eq}; a {@code null} argument → {@code IsNull};</li>
 * <li>{@code Not} → {@code neq} (also matches a missing key); {@code null} → {@code IsNotNull};</li>
 * <li>{@code In} → {@code in}; {@code NotIn} → {@code not_in} (also matches a missing key);</li>
 * <li>{@code GreaterThan}, {@code GreaterThanEqual}, {@code LessThan}, {@code LessThanEqual},
 * {@code After}, {@code Before} → {@code gt}, {@code gte}, {@code lt}, {@code lte};
 * {@code Between} → {@code between}, both bounds inclusive;</li>
 * <li>{@code StartingWith} → {@code prefix} (bytewise; the range index serves it unless it ignores
 * case); {@code EndingWith} → {@code suffix}; {@code Containing}/{@code NotContaining} →
 * {@code contains}/{@code not_contains} on a string, {@code has}/{@code not_has} (an element) on a
 * collection; {@code Like}/{@code NotLike} → {@code like}/{@code not_like} (the whole string,
 * {@code *} for any run of characters); {@code Regex} → {@code regex} (a Java pattern found
 * anywhere in the string);</li>
 * <li>a plain or {@code Not} property on a collection with a single argument → {@code has}/
 * {@code not_has} (an element matches); with a collection argument, the whole list;</li>
 * <li>{@code IgnoreCase} (or {@code AllIgnoreCase} on string properties) folds case in
 * {@code Locale.ROOT} for equality, {@code In}, string and element keywords; such parts are
 * answered by reading records;</li>
 * <li>nested properties ({@code PublisherName}, {@code Publisher_Name}) query core field paths;
 * through a collection of objects ({@code ReviewsRating}) any element matches;</li>
 * <li>{@code True}/{@code False} → {@code eq true}/{@code eq false};</li>
 * <li>{@code IsNull} → {@code missing} or {@code eq null}; {@code IsNotNull} → {@code exists} and
 * {@code neq null}; {@code Exists} → {@code exists} (the key is present, a null counts).</li>
 * </ul>
 * Semantics are core's: equality is strict and
 * type-sensitive, and ranges use core's total order. One deliberate difference: core orders
 * JSON {@code null} after numbers and strings, so {@code GreaterThan}, {@code GreaterThanEqual}
 * and {@code After} also get {@code neq null}, and a stored {@code null} never matches them, as
 * in other Spring Data modules ({@code LessThan} and {@code Between} with non-null bounds never
 * match null in core's order anyway). The extra condition is re-checked on the index candidates,
 * so the range index still serves the query; only a {@code countBy} with such a keyword reads the
 * candidate records instead of counting index entries. Arguments are converted to the JSON model
 * by {@link StorhEntityConverter#toJsonValue(Object)} the way entities are written, so an
 * {@code int} compares with a stored {@code long}, an enum with its stored name. The id
 * property is queried as core's {@code id} (the record id). One instance serves one call; not
 * thread-safe.
 */
public class StorhQueryCreator extends AbstractQueryCreator<StorhQuery, StorhCriteria> {

    /** The {@link Part.Type}s storh evaluates; any other keyword fails at startup. */
    public static final Set<Part.Type> SUPPORTED_TYPES = Collections.unmodifiableSet(EnumSet.of(
            Part.Type.SIMPLE_PROPERTY, Part.Type.NEGATING_SIMPLE_PROPERTY, Part.Type.IS_NULL, Part.Type.IS_NOT_NULL,
            Part.Type.TRUE, Part.Type.FALSE, Part.Type.IN, Part.Type.NOT_IN, Part.Type.GREATER_THAN,
            Part.Type.GREATER_THAN_EQUAL, Part.Type.LESS_THAN, Part.Type.LESS_THAN_EQUAL, Part.Type.AFTER,
            Part.Type.BEFORE, Part.Type.BETWEEN, Part.Type.STARTING_WITH, Part.Type.ENDING_WITH, Part.Type.CONTAINING,
            Part.Type.NOT_CONTAINING, Part.Type.LIKE, Part.Type.NOT_LIKE, Part.Type.REGEX, Part.Type.EXISTS));

    private final StorhEntityConverter converter;

    private final String idProperty;

    /**
     * @param tree the parsed method name, checked by {@link StorhPartTreeQuery}
     * @param parameters the call's arguments
     * @param converter converts arguments to the JSON model
     * @param idProperty the name of the entity's id property, queried as core's {@code id}
     */
    public StorhQueryCreator(PartTree tree, ParameterAccessor parameters, StorhEntityConverter converter,
            String idProperty) {
        super(tree, parameters);
        Assert.notNull(converter, "'converter' must not be null");
        this.converter = converter;
        this.idProperty = idProperty;
    }

    @Override
    protected StorhCriteria create(Part part, Iterator<Object> iterator) {
        return criteria(StorhCriteria.all(), part, iterator);
    }

    @Override
    protected StorhCriteria and(Part part, StorhCriteria base, Iterator<Object> iterator) {
        return criteria(base, part, iterator);
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
     * @param part a part of the method name
     * @param idProperty the entity's id property name
     * @return the core field path the part queries: {@code id} for the id property, else the
     * property names from the entity down ({@code publisher.name} for {@code PublisherName} or
     * {@code Publisher_Name})
     */
    static FieldPath field(Part part, String idProperty) {
        return PropertyPaths.toFieldPath(part.getProperty(), idProperty);
    }

    /**
     * @param part a part of the method name
     * @return whether the part compares case-insensitively: {@code IgnoreCase}, or
     * {@code AllIgnoreCase} on a string property
     */
    static boolean ignoresCase(Part part) {
        return switch (part.shouldIgnoreCase()) {
            case ALWAYS -> true;
            case WHEN_POSSIBLE -> isText(part) && operator(part) != null && operator(part).foldsCase();
            case NEVER -> false;
        };
    }

    /**
     * @param part a part of the method name
     * @return whether its property holds text (or a collection of text)
     */
    static boolean isText(Part part) {
        PropertyPath leaf = part.getProperty().getLeafProperty();
        Class<?> type = leaf.isCollection() ? leaf.getTypeInformation().getRequiredActualType().getType()
                : leaf.getType();
        return CharSequence.class.isAssignableFrom(type) || type == char.class || type == Character.class;
    }

    /**
     * @param part a part of the method name
     * @return the core operator the keyword maps to first (before a null argument turns
     * equality into {@code IsNull}), or {@code null} for keywords that compare by value order
     */
    static Operator operator(Part part) {
        boolean list = part.getProperty().getLeafProperty().isCollection();
        return switch (part.getType()) {
            case SIMPLE_PROPERTY -> list ? Operator.HAS : Operator.EQ;
            case NEGATING_SIMPLE_PROPERTY -> list ? Operator.NOT_HAS : Operator.NEQ;
            case IN -> Operator.IN;
            case NOT_IN -> Operator.NOT_IN;
            case STARTING_WITH -> Operator.PREFIX;
            case ENDING_WITH -> Operator.SUFFIX;
            case CONTAINING -> list ? Operator.HAS : Operator.CONTAINS;
            case NOT_CONTAINING -> list ? Operator.NOT_HAS : Operator.NOT_CONTAINS;
            case LIKE -> Operator.LIKE;
            case NOT_LIKE -> Operator.NOT_LIKE;
            case REGEX -> Operator.REGEX;
            default -> null;
        };
    }

    private StorhCriteria criteria(StorhCriteria base, Part part, Iterator<Object> arguments) {
        StorhCriteria.Field where = base.and(field(part, this.idProperty));
        if (ignoresCase(part)) {
            where = where.ignoreCase();
        }
        boolean list = part.getProperty().getLeafProperty().isCollection();
        return switch (part.getType()) {
            case SIMPLE_PROPERTY -> {
                Object value = next(arguments);
                yield (value == null) ? where.isNull()
                        : (list && !(value instanceof List<?>)) ? where.hasElement(value) : where.is(value);
            }
            case NEGATING_SIMPLE_PROPERTY -> {
                Object value = next(arguments);
                yield (value == null) ? where.isNotNull()
                        : (list && !(value instanceof List<?>)) ? where.lacksElement(value) : where.isNot(value);
            }
            case IS_NULL -> where.isNull();
            case IS_NOT_NULL -> where.isNotNull();
            case EXISTS -> where.exists();
            case TRUE -> where.is(Boolean.TRUE);
            case FALSE -> where.is(Boolean.FALSE);
            case IN -> where.in(candidates(part, arguments));
            case NOT_IN -> where.notIn(candidates(part, arguments));
            case GREATER_THAN, AFTER -> notNull(where.greaterThan(next(arguments)), part);
            case GREATER_THAN_EQUAL -> notNull(where.greaterThanOrEqual(next(arguments)), part);
            case LESS_THAN, BEFORE -> where.lessThan(next(arguments));
            case LESS_THAN_EQUAL -> where.lessThanOrEqual(next(arguments));
            case BETWEEN -> where.between(next(arguments), next(arguments));
            case STARTING_WITH -> where.startsWith(text(part, arguments));
            case ENDING_WITH -> where.endsWith(text(part, arguments));
            case CONTAINING -> list ? where.hasElement(next(arguments)) : where.contains(text(part, arguments));
            case NOT_CONTAINING -> list ? where.lacksElement(next(arguments)) : where.notContains(text(part, arguments));
            case LIKE -> where.like(text(part, arguments));
            case NOT_LIKE -> where.notLike(text(part, arguments));
            case REGEX -> where.regex(text(part, arguments));
            default -> throw new InvalidDataAccessApiUsageException("Keyword " + part.getType() + " on property '"
                    + part.getProperty().toDotPath() + "' is not supported by storh; supported: " + SUPPORTED_TYPES);
        };
    }

    /**
     * Core orders JSON null after numbers and strings; a derived {@code GreaterThan} must not
     * match a stored null, as in other Spring Data modules.
     */
    private StorhCriteria notNull(StorhCriteria criteria, Part part) {
        return criteria.and(field(part, this.idProperty)).isNot(null);
    }

    private Object next(Iterator<Object> arguments) {
        return this.converter.toJsonValue(arguments.next());
    }

    private List<?> candidates(Part part, Iterator<Object> arguments) {
        Object argument = arguments.next();
        Collection<?> collection;
        if (argument instanceof Collection<?> c) {
            collection = c;
        }
        else if (argument != null && argument.getClass().isArray()) {
            collection = Arrays.asList(ObjectUtils.toObjectArray(argument));
        }
        else {
            throw new InvalidDataAccessApiUsageException("Keyword " + part.getType() + " on property '"
                    + part.getProperty().toDotPath() + "' needs a collection or array argument, got "
                    + ((argument != null) ? argument.getClass().getName() : "null"));
        }
        return collection.stream().map(this.converter::toJsonValue).toList();
    }

    private String text(Part part, Iterator<Object> arguments) {
        Object value = next(arguments);
        if (!(value instanceof String text)) {
            throw new InvalidDataAccessApiUsageException("Keyword " + part.getType() + " on property '"
                    + part.getProperty().toDotPath() + "' needs a non-null string argument, got "
                    + ((value != null) ? value.getClass().getName() : "null"));
        }
        return text;
    }

}

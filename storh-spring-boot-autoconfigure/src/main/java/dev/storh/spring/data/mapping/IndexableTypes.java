package dev.storh.spring.data.mapping;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.util.Set;
import java.util.UUID;

import org.springframework.data.mapping.MappingException;

/**
 * Which property types an {@link Indexed @Indexed} declaration accepts, checked when the entity's
 * mapping is built (at startup for a repository's entity), so an index never silently disagrees
 * with a scan.
 * <ul>
 * <li>An equality or unique index needs a property stored as one JSON scalar (text, number,
 * boolean), or a collection or array of them (one index entry per element): not a map or a
 * nested object (index the nested object's own properties instead).</li>
 * <li>A case-insensitive index serves no range condition, so it cannot be a range index.</li>
 * <li>A range index also needs the stored JSON value to sort like the Java values: numbers of
 * every width ({@code BigDecimal} and {@code BigInteger} included), {@code String},
 * {@code char}, {@code boolean}, and the ISO-8601 texts that sort by time: {@code LocalDate},
 * {@code LocalDateTime}, {@code LocalTime}, {@code YearMonth}, {@code Year} and {@code Instant}
 * (written with a fixed nine-digit fraction for this reason), for years 0000 to 9999. Enums
 * (stored by name), {@code UUID}s (text order is not {@code UUID.compareTo} order), and
 * {@code OffsetDateTime}/{@code ZonedDateTime}/{@code OffsetTime} (text order is not time order
 * across offsets) are refused, as is any type storh cannot tell the order of.</li>
 * </ul>
 * Range conditions of derived queries ({@code GreaterThan}, {@code Between}, ...) are refused
 * on the same types, indexed or not, since a scan compares the same JSON values. Stateless.
 */
public final class IndexableTypes {

    private static final Set<Class<?>> RANGE = Set.of(byte.class, Byte.class, short.class, Short.class, int.class,
            Integer.class, long.class, Long.class, float.class, Float.class, double.class, Double.class,
            BigInteger.class, BigDecimal.class, String.class, char.class, Character.class, boolean.class,
            Boolean.class, LocalDate.class, LocalDateTime.class, LocalTime.class, YearMonth.class, Year.class,
            Instant.class);

    private IndexableTypes() {
    }

    /**
     * @param type a property type
     * @return whether values of the type are stored as JSON values that sort like the Java values
     * ({@code Object} counts: storh cannot tell)
     */
    public static boolean sortsLikeValues(Class<?> type) {
        return type == Object.class || RANGE.contains(type);
    }

    /**
     * @param type a property type that does not {@linkplain #sortsLikeValues sort like its values}
     * @return why, as a sentence fragment
     */
    public static String whyUnordered(Class<?> type) {
        return reason(type);
    }

    /**
     * @param property an {@code @Indexed} property
     * @throws MappingException naming the entity, the property, its type, why and what to change
     */
    static void check(StorhPersistentProperty property) {
        Class<?> type = property.getType();
        String name = "@Indexed property '" + property.getName() + "' of " + property.getOwner().getType().getName()
                + " (" + type.getName() + ")";
        if (property.isMap() || property.isEntity()) {
            throw new MappingException(name + " cannot be indexed: storh indexes properties stored as JSON "
                    + "text, numbers or booleans (or lists of them), not maps or nested objects; remove @Indexed or "
                    + "put it on the nested object's own properties (indexed at their paths, e.g. publisher.name)");
        }
        boolean collection = property.isCollectionLike() || type.isArray();
        if (property.isRangeIndex() && (collection || property.isIgnoreCaseIndex())) {
            throw new MappingException(name + " cannot have a range index: "
                    + (collection ? "a collection has no single value to order by" : "a case-insensitive index keeps no "
                    + "case-sensitive order") + "; drop range = true (its index still serves equality, In"
                    + (collection ? " and element queries" : " and StartingWithIgnoreCase") + ")");
        }
        if (!property.isRangeIndex() || sortsLikeValues(type)) {
            return;
        }
        throw new MappingException(name + " cannot have a range index: " + reason(type)
                + "; use @Indexed without range = true (equality queries stay indexed) or store a type whose "
                + "JSON form sorts like its values (see docs/types.md)");
    }

    private static String reason(Class<?> type) {
        if (type.isEnum()) {
            return "an enum is stored as its constant's name, and names do not sort like the constants";
        }
        if (type == UUID.class) {
            return "a UUID is stored as text, and text order is not UUID order";
        }
        if (type == OffsetDateTime.class || type == ZonedDateTime.class || type == OffsetTime.class) {
            return "it is stored as ISO-8601 text with its offset, and that text does not sort like time across "
                    + "offsets (store an Instant)";
        }
        return "storh cannot tell whether its JSON form sorts like its values";
    }

}

package dev.storh.spring.data.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.storh.doc.index.IndexManager;
import dev.storh.query.FieldPath;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.mapping.StorhPersistentProperty;

/**
 * Declares an entity type's {@code @Indexed} properties on its collection's {@link IndexManager}:
 * <ul>
 * <li>a top-level scalar property: the original's index ({@code defineField(name, unique, range)}, unique
 * only without {@code range}: the original checks a unique range field by reading its range files);
 * with {@code unique}, also a unique path index on the property, which never checks {@code null} or a
 * missing value, so any number of entities may leave it unset (the template never stores a
 * {@code null} unique property, so the original's check, which counts {@code null}, never sees
 * one); in the value-deltas layout (docs/indexes.md: a collection the original does not open) a
 * unique property without {@code range} gets the unique path index alone, which keeps every value
 * in one file rather than one value file per record;</li>
 * <li>with {@code ignoreCase}: a case-folded path index (unique when declared so) instead of the
 * original's;</li>
 * <li>a collection of scalars, and any property of a nested object or of a collection of objects
 * (walked down from the entity, e.g. {@code publisher.name}, {@code reviews.rating}): a path index at
 * the property's path, one entry per element the path reaches.</li>
 * </ul>
 * Nothing is synced here. Stateless.
 */
final class IndexDeclarations {

    private IndexDeclarations() {
    }

    /**
     * @param entity the document entity
     * @param context the mapping context, which describes nested types
     * @param indexes the collection's indexes
     * @return whether anything was declared
     */
    static boolean declare(StorhPersistentEntity<?> entity, StorhMappingContext context, IndexManager indexes) {
        return declare(entity, context, indexes, List.of(), new HashSet<>());
    }

    private static boolean declare(StorhPersistentEntity<?> entity, StorhMappingContext context, IndexManager indexes,
            List<String> prefix, Set<Class<?>> walking) {
        if (!walking.add(entity.getType())) {
            return false; // a type nested in itself: its indexes are declared once, at the outer level
        }
        boolean declared = false;
        for (StorhPersistentProperty property : entity) {
            if (prefix.isEmpty() && property.isIdProperty()) {
                continue;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(property.getName());
            if (property.isEntity() && !property.isMap()) {
                declared |= declare(context.getRequiredPersistentEntity(property.getActualType()), context, indexes, path,
                        walking);
                continue;
            }
            if (!property.isIndexed()) {
                continue;
            }
            declared = true;
            boolean scalar = !property.isCollectionLike() && !property.getType().isArray();
            if (prefix.isEmpty() && scalar && !property.isIgnoreCaseIndex()) {
                // a unique equality field is unique in the original's manifest too, which keeps it out of the
                // automatic compound buckets (one new file per record and paired field, never a useful one)
                boolean unique = property.isUniqueIndex() && !property.isRangeIndex();
                // in value deltas (a collection the original does not open) the unique path index alone
                // holds the values: one file for all of them, where the original's index writes one new
                // value file per record saved
                if (!(unique && indexes.valueDeltasAfterSync())) {
                    indexes.defineField(property.getName(), unique, property.isRangeIndex());
                }
                if (property.isUniqueIndex()) {
                    indexes.definePath(new FieldPath(path), true, false);
                }
            }
            else {
                indexes.definePath(new FieldPath(path), property.isUniqueIndex(), property.isIgnoreCaseIndex());
            }
        }
        walking.remove(entity.getType());
        return declared;
    }

}

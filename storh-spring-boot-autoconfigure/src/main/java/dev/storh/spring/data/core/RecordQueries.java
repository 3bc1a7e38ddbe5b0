package dev.storh.spring.data.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.storh.StorageRecord;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import dev.storh.query.QueryPlan;
import dev.storh.query.Values;
import dev.storh.spring.data.core.query.PropertyPaths;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.transaction.CollectionAccess;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.core.PropertyPath;
import org.springframework.data.domain.Sort;
import org.springframework.util.Assert;

/**
 * Runs {@link StorhQuery}s as core {@link QueryBuilder}s on the entity type's store: criteria with
 * operands in the JSON model, the id cursor, a one-property sort as core's {@code orderBy} (index
 * ordered where the planner can) and longer sorts applied to the matches here, ties always broken
 * by ascending id, then the query's field projection. Records come back undecoded; the template
 * turns them into entities.
 * Thread-safe.
 */
final class RecordQueries {

    private final StorhEntityConverter converter;

    private final Function<Class<?>, CollectionAccess> stores;

    private final StorhExceptionTranslator translator;

    /**
     * @param converter operand conversion and entity metadata
     * @param stores the indexed store of an entity type
     * @param translator turns storage failures into data access exceptions
     */
    RecordQueries(StorhEntityConverter converter, Function<Class<?>, CollectionAccess> stores,
            StorhExceptionTranslator translator) {
        this.converter = converter;
        this.stores = stores;
        this.translator = translator;
    }

    /**
     * @return the matching records after sort, offset and limit. A limited sort whose first key
     * has a range index and whose conditions include an indexed equality is read in that index's
     * order ({@link RangeOrderedReads}); otherwise a one-property sort is core's {@code orderBy}
     * with a limit of offset + limit, a longer limited sort reads the first offset + limit by its
     * first key and the records tied with the last of them ({@link #byFirstKey}), and an unlimited
     * longer sort is applied here to all matches.
     */
    List<StorageRecord> records(StorhQuery query, Class<?> type) {
        Assert.notNull(query, "'query' must not be null");
        if (query.limit() == 0) {
            return List.of();
        }
        QueryBuilder core = coreQuery(query, type);
        List<SortKey> orders = resolveSort(query.sort(), type);
        long offset = query.offset();
        List<StorageRecord> records = (query.isLimited() && !orders.isEmpty())
                ? RangeOrderedReads.firstMatches(core, this.stores.apply(type), orders, offset + query.limit()) : null;
        if (records == null) {
            records = sorted(core, orders, query);
        }
        if (offset >= records.size()) {
            return List.of();
        }
        long end = query.isLimited() ? Math.min(records.size(), offset + query.limit()) : records.size();
        List<StorageRecord> window = (offset == 0 && end == records.size()) ? records
                : records.subList((int) offset, (int) end);
        return (query.fields() != null) ? window.stream().map((record) -> project(record, query)).toList() : window;
    }

    /**
     * @return the matches in sort order as core and this class sort them: at least the first
     * offset + limit of a limited query, every match of an unlimited one
     */
    private List<StorageRecord> sorted(QueryBuilder core, List<SortKey> orders, StorhQuery query) {
        long offset = query.offset();
        if (orders.size() <= 1) {
            QueryBuilder ordered = core;
            if (orders.size() == 1) {
                ordered = ordered.orderBy(orders.get(0).path(), orders.get(0).direction());
            }
            if (query.isLimited()) {
                ordered = ordered.limit(offset + query.limit());
            }
            return this.translator.translated(ordered::get);
        }
        if (query.isLimited() && !orders.get(0).path().isId()) {
            return byFirstKey(core, orders, offset + query.limit());
        }
        List<StorageRecord> records = new ArrayList<>(this.translator.translated(core::get));
        records.sort(comparator(orders));
        return records;
    }

    /**
     * The first {@code n} matches of a sort with several keys, without reading every match: core
     * orders by the first key only (from its range index where it has one) and returns the first
     * {@code n}; the records that tie with the {@code n}-th on the first key are then read with one
     * {@code between(v, v)} condition (served by the same index), as they may sort before it on the
     * next keys. Every record whose first key sorts before the {@code n}-th one's is among the first
     * {@code n}, so the full sort of both reads starts with the right {@code n}.
     */
    private List<StorageRecord> byFirstKey(QueryBuilder core, List<SortKey> orders, long n) {
        SortKey first = orders.get(0);
        QueryBuilder head = core.orderBy(first.path(), first.direction()).limit(n);
        List<StorageRecord> records = new ArrayList<>(this.translator.translated(head::get));
        if (records.size() == n) {
            Object boundary = valueOf(records.get(records.size() - 1), first.path());
            records.removeIf((r) -> Values.compare(valueOf(r, first.path()), boundary) == 0);
            QueryBuilder tied = core.where(first.path()).between(boundary, boundary);
            List<StorageRecord> ties = new ArrayList<>(this.translator.translated(tied::get));
            if (boundary == null) {
                QueryBuilder missing = core.where(first.path()).missing();
                ties.addAll(this.translator.translated(missing::get));
            }
            ties.stream().filter((r) -> Values.compare(valueOf(r, first.path()), boundary) == 0).forEach(records::add);
        }
        records.sort(comparator(orders));
        return records;
    }

    private static StorageRecord project(StorageRecord record, StorhQuery query) {
        return new StorageRecord(record.id(), query.fields().apply(record.data()));
    }

    /**
     * @return the matches read lazily (failures translated while reading) when the query has no
     * sort and no offset, else {@code null}: such queries are answered by {@link #records}
     */
    Stream<StorageRecord> lazily(StorhQuery query, Class<?> type) {
        Assert.notNull(query, "'query' must not be null");
        if (query.sort().isSorted() || query.offset() != 0 || query.limit() == 0) {
            return null;
        }
        QueryBuilder core = coreQuery(query, type);
        QueryBuilder limited = query.isLimited() ? core.limit(query.limit()) : core;
        Stream<StorageRecord> records = this.translator.translating(this.translator.translated(limited::stream));
        return (query.fields() != null) ? records.map((record) -> project(record, query)) : records;
    }

    /**
     * @return the number of matches; sort, offset and limit are ignored
     */
    long count(StorhQuery query, Class<?> type) {
        Assert.notNull(query, "'query' must not be null");
        QueryBuilder core = coreQuery(query, type);
        return this.translator.translated(core::count);
    }

    /**
     * @return whether anything matches
     */
    boolean exists(StorhQuery query, Class<?> type) {
        Assert.notNull(query, "'query' must not be null");
        QueryBuilder core = coreQuery(query, type).limit(1);
        return this.translator.translated(core::count) > 0;
    }

    /**
     * @return core's plan for the query as {@link #records} runs it (one-property sort, limit)
     */
    QueryPlan explain(StorhQuery query, Class<?> type) {
        Assert.notNull(query, "'query' must not be null");
        QueryBuilder core = coreQuery(query, type);
        List<SortKey> orders = resolveSort(query.sort(), type);
        if (orders.size() == 1) {
            core = core.orderBy(orders.get(0).path(), orders.get(0).direction());
        }
        if (query.isLimited() && query.limit() > 0) {
            core = core.limit(query.offset() + query.limit());
        }
        return this.translator.translated(core::explain);
    }

    /**
     * The core query of a {@link StorhQuery}'s criteria (operands converted to the JSON model)
     * and cursor, on the type's indexed store; no order, no limit.
     */
    private QueryBuilder coreQuery(StorhQuery query, Class<?> type) {
        CollectionAccess store = this.stores.apply(type);
        QueryBuilder core = query.criteria().mapValues(this.converter::toJsonValue).applyTo(store.query());
        if (query.cursor() != null) {
            core = core.cursor(StorhIds.check(query.cursor(), this.converter.getRequiredEntity(type).getCollection()));
        }
        return core;
    }

    /** One sort key: a core field path and its direction. */
    record SortKey(FieldPath path, Direction direction) {
    }

    /**
     * Sort orders as core paths: the top-level id property becomes {@code id}, other properties
     * their names from the entity down ({@code publisher.name}); no ignore-case, no explicit null
     * handling.
     */
    List<SortKey> resolveSort(Sort sort, Class<?> type) {
        if (sort.isUnsorted()) {
            return List.of();
        }
        StorhPersistentEntity<?> entity = this.converter.getRequiredEntity(type);
        List<SortKey> orders = new ArrayList<>();
        for (Sort.Order order : sort) {
            PropertyPath path = PropertyPath.from(order.getProperty(), type);
            if (order.isIgnoreCase() || order.getNullHandling() != Sort.NullHandling.NATIVE) {
                throw new InvalidDataAccessApiUsageException("Cannot sort " + type.getName() + " by " + order
                        + ": storh sorts by core's value order (null after strings and numbers), without "
                        + "ignore-case or null handling");
            }
            entity.getRequiredPersistentProperty(path.getSegment());
            String idProperty = entity.getRequiredDocumentIdProperty().getName();
            orders.add(new SortKey(PropertyPaths.toFieldPath(path, idProperty),
                    order.isAscending() ? Direction.ASC : Direction.DESC));
        }
        return orders;
    }

    /**
     * @return the order of the keys in core's value order, then ascending id
     */
    static Comparator<StorageRecord> comparator(List<SortKey> orders) {
        Comparator<StorageRecord> result = null;
        for (SortKey order : orders) {
            FieldPath field = order.path();
            Comparator<StorageRecord> next = (a, b) -> Values.compare(valueOf(a, field), valueOf(b, field));
            if (order.direction() == Direction.DESC) {
                next = next.reversed();
            }
            result = (result == null) ? next : result.thenComparing(next);
        }
        return Objects.requireNonNull(result).thenComparing(StorageRecord::id);
    }

    /**
     * @return the record's first value at the path ({@code null} when missing); the id for {@code id}
     */
    static Object valueOf(StorageRecord record, FieldPath field) {
        if (field.isId()) {
            return record.id();
        }
        List<Object> reached = field.resolve(record.data());
        return reached.isEmpty() ? null : reached.get(0);
    }

}

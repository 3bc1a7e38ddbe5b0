package dev.storh.spring.data.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.storh.StorageRecord;
import dev.storh.query.Direction;
import dev.storh.query.Values;
import dev.storh.spring.data.core.RecordQueries.SortKey;
import dev.storh.spring.data.core.query.StorhQuery;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.domain.KeysetScrollPosition;
import org.springframework.data.domain.OffsetScrollPosition;
import org.springframework.data.domain.ScrollPosition;
import org.springframework.data.domain.Window;
import org.springframework.util.Assert;

/**
 * Windows of a query's matches ({@link StorhOperations#scroll}). Offset positions skip matches.
 * Keyset positions hold the sort properties' values of the last (forward) or first (backward)
 * entity seen and its id, so a window continues after (or before) that entity however the
 * records around it changed; ties of the sort are broken by ascending id. Scrolling in id order
 * alone, forwards, follows core's id cursor and reads only the window; any other keyset scroll
 * reads and sorts every match. Thread-safe.
 *
 * @param converter the template's converter: entity metadata and keyset values
 * @param queries runs the queries
 * @param events turns each record read into its entity, with the after-convert event
 */
record EntityScrolling(StorhEntityConverter converter, RecordQueries queries, EntityEvents events) {

    /**
     * @param query criteria, sort, and the window size as its limit (none: the rest of the matches)
     * @param position where the window starts
     * @return the window
     */
    <T> Window<T> scroll(StorhQuery query, ScrollPosition position, Class<T> type) {
        Assert.notNull(query, "'query' must not be null");
        Assert.notNull(position, "'position' must not be null");
        int size = query.isLimited() ? query.limit() : -1;
        String collection = this.converter.getRequiredEntity(type).getCollection();
        if (position instanceof OffsetScrollPosition offset) {
            long start = offset.isInitial() ? 0 : offset.getOffset() + 1;
            List<StorageRecord> read = this.queries.records(limited(query.withOffset(start), size), type);
            boolean hasNext = size >= 0 && read.size() > size;
            List<T> items = entities(type, collection, hasNext ? read.subList(0, size) : read);
            return Window.from(items, OffsetScrollPosition.positionFunction(start), hasNext);
        }
        if (!(position instanceof KeysetScrollPosition keyset)) {
            throw new InvalidDataAccessApiUsageException("Cannot scroll " + type.getName() + " from " + position
                    + ": storh scrolls by offset or keyset positions");
        }
        String idProperty = this.converter.getRequiredEntity(type).getRequiredDocumentIdProperty().getName();
        List<SortKey> orders = this.queries.resolveSort(query.sort(), type);
        List<String> names = new ArrayList<>();
        query.sort().forEach((order) -> names.add(order.getProperty()));
        List<StorageRecord> window;
        boolean hasNext;
        if (keyset.scrollsForward() && inIdOrder(orders)) {
            String after = keyset.isInitial() ? null : idKey(keyset, idProperty, type);
            List<StorageRecord> read = this.queries
                .records(limited(StorhQuery.where(query.criteria()).withCursor(after), size), type);
            hasNext = size >= 0 && read.size() > size;
            window = hasNext ? read.subList(0, size) : read;
        }
        else {
            List<StorageRecord> all = new ArrayList<>(
                    this.queries.records(StorhQuery.where(query.criteria()).withSort(query.sort()), type));
            if (!orders.isEmpty()) {
                all.sort(RecordQueries.comparator(orders));
            }
            int from;
            int to;
            if (keyset.scrollsForward()) {
                from = keyset.isInitial() ? 0 : firstAfter(all, orders, keyValues(keyset, names, idProperty, type), false);
                to = (size < 0) ? all.size() : (int) Math.min(all.size(), (long) from + size);
                hasNext = to < all.size();
            }
            else {
                to = keyset.isInitial() ? all.size() : firstAfter(all, orders,
                        keyValues(keyset, names, idProperty, type), true);
                from = (size < 0) ? 0 : Math.max(0, to - size);
                hasNext = from > 0;
            }
            window = all.subList(from, to);
        }
        List<T> items = entities(type, collection, window);
        List<Map<String, Object>> keys = new ArrayList<>(window.size());
        for (StorageRecord record : window) {
            Map<String, Object> key = new LinkedHashMap<>();
            for (int i = 0; i < orders.size(); i++) {
                key.put(names.get(i), RecordQueries.valueOf(record, orders.get(i).path()));
            }
            key.put(idProperty, record.id());
            keys.add(key);
        }
        ScrollPosition.Direction direction = keyset.getDirection();
        return Window.from(items, (i) -> ScrollPosition.of(keys.get(i), direction), hasNext);
    }

    private static StorhQuery limited(StorhQuery query, int size) {
        return (size >= 0) ? query.withLimit(size + 1) : query;
    }

    private static boolean inIdOrder(List<SortKey> orders) {
        return orders.stream().allMatch((order) -> order.path().isId() && order.direction() == Direction.ASC);
    }

    /**
     * @return the index of the first record after the key (with {@code orAt}: at or after it), in
     * the order of the sort then ascending id
     */
    private static int firstAfter(List<StorageRecord> sorted, List<SortKey> orders, Object[] key, boolean orAt) {
        for (int i = 0; i < sorted.size(); i++) {
            int compared = compareToKey(sorted.get(i), orders, key);
            if (orAt ? compared >= 0 : compared > 0) {
                return i;
            }
        }
        return sorted.size();
    }

    private static int compareToKey(StorageRecord record, List<SortKey> orders, Object[] key) {
        for (int i = 0; i < orders.size(); i++) {
            int compared = Values.compare(RecordQueries.valueOf(record, orders.get(i).path()), key[i]);
            if (compared != 0) {
                return (orders.get(i).direction() == Direction.DESC) ? -compared : compared;
            }
        }
        return record.id().compareTo((String) key[orders.size()]);
    }

    /**
     * @return the position's values of the sort properties (in the JSON model) then its id
     */
    private Object[] keyValues(KeysetScrollPosition keyset, List<String> names, String idProperty, Class<?> type) {
        Object[] values = new Object[names.size() + 1];
        for (int i = 0; i < names.size(); i++) {
            values[i] = this.converter.toJsonValue(key(keyset, names.get(i), type));
        }
        values[names.size()] = idKey(keyset, idProperty, type);
        return values;
    }

    /**
     * @return the position's id, under the id property's name or core's {@code id}
     */
    private static String idKey(KeysetScrollPosition keyset, String idProperty, Class<?> type) {
        Object id = keyset.getKeys().containsKey(idProperty) ? keyset.getKeys().get(idProperty)
                : keyset.getKeys().get("id");
        return String.valueOf((id != null) ? id : key(keyset, idProperty, type));
    }

    private static Object key(KeysetScrollPosition keyset, String name, Class<?> type) {
        Map<String, ?> keys = keyset.getKeys();
        if (!keys.containsKey(name)) {
            throw new InvalidDataAccessApiUsageException("Cannot scroll " + type.getName() + " from " + keyset
                    + ": the keyset position has no '" + name + "' key (it needs every sort property and the id)");
        }
        return keys.get(name);
    }

    private <T> List<T> entities(Class<T> type, String collection, List<StorageRecord> records) {
        List<T> entities = new ArrayList<>(records.size());
        for (StorageRecord record : records) {
            entities.add(this.events.read(type, collection, record));
        }
        return entities;
    }

}

package dev.storh.spring.data.core.event;

import java.util.Map;

/**
 * Base of the mapping events whose source is the entity itself (saves and conversions), as
 * opposed to the delete events, which carry the id.
 *
 * @param <T> the entity type
 */
public abstract class StorhEntityEvent<T> extends StorhMappingEvent<T> {

    /**
     * @param entity the entity
     * @param type the entity type
     * @param collection the collection name
     * @param data the record's JSON object, or {@code null} when the event has none
     */
    protected StorhEntityEvent(T entity, Class<T> type, String collection, Map<String, Object> data) {
        super(entity, type, collection, data);
    }

    /**
     * @return the entity
     */
    @SuppressWarnings("unchecked")
    public T getEntity() {
        return (T) getSource();
    }

}

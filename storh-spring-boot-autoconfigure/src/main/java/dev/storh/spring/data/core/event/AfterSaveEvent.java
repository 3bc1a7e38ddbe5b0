package dev.storh.spring.data.core.event;

import java.util.Map;

/**
 * Published after an entity's record is durable: {@link #getEntity()} carries the stored id and version.
 *
 * @param <T> the entity type
 */
public class AfterSaveEvent<T> extends StorhEntityEvent<T> {

    /**
     * @param entity the entity
     * @param type the entity type
     * @param collection the collection name
     * @param data the JSON object written
     */
    public AfterSaveEvent(T entity, Class<T> type, String collection, Map<String, Object> data) {
        super(entity, type, collection, data);
    }

}

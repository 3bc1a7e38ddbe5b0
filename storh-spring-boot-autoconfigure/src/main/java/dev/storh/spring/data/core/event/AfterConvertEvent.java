package dev.storh.spring.data.core.event;

import java.util.Map;

/**
 * Published after a stored record is read as an entity (find, stream, query methods).
 *
 * @param <T> the entity type
 */
public class AfterConvertEvent<T> extends StorhEntityEvent<T> {

    /**
     * @param entity the entity
     * @param type the entity type
     * @param collection the collection name
     * @param data the JSON object read
     */
    public AfterConvertEvent(T entity, Class<T> type, String collection, Map<String, Object> data) {
        super(entity, type, collection, data);
    }

}

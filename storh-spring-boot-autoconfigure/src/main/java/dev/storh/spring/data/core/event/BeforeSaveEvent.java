package dev.storh.spring.data.core.event;

import java.util.Map;

/**
 * Published after an entity is converted and before its record is written: {@link #getData()} is the JSON
 * object about to be written and may be changed; a listener exception aborts the save with nothing written.
 *
 * @param <T> the entity type
 */
public class BeforeSaveEvent<T> extends StorhEntityEvent<T> {

    /**
     * @param entity the entity
     * @param type the entity type
     * @param collection the collection name
     * @param data the JSON object to write (mutable)
     */
    public BeforeSaveEvent(T entity, Class<T> type, String collection, Map<String, Object> data) {
        super(entity, type, collection, data);
    }

}

package dev.storh.spring.data.core.event;

import java.util.Map;

/**
 * Published before an entity is converted to its JSON object for saving, after the
 * {@link BeforeConvertCallback}s (auditing) ran: {@link #getEntity()} is the instance that will be stored.
 *
 * @param <T> the entity type
 */
public class BeforeConvertEvent<T> extends StorhEntityEvent<T> {

    /**
     * @param entity the entity
     * @param type the entity type
     * @param collection the collection name
     * @param data always {@code null}
     */
    public BeforeConvertEvent(T entity, Class<T> type, String collection, Map<String, Object> data) {
        super(entity, type, collection, data);
    }

}

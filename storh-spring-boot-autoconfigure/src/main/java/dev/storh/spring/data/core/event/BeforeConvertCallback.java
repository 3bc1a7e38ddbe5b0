package dev.storh.spring.data.core.event;

import org.springframework.data.mapping.callback.EntityCallback;

/**
 * Entity callback invoked by the template before an entity is converted for saving; it may
 * return a different instance (an immutable entity with audit fields set), which is then stored
 * and returned by {@code save}. Beans implementing it are discovered from the application
 * context; {@link AuditingEntityCallback} is one.
 *
 * @param <T> the entity type
 */
@FunctionalInterface
public interface BeforeConvertCallback<T> extends EntityCallback<T> {

    /**
     * @param entity the entity about to be saved
     * @param collection its collection
     * @return the entity to save, never {@code null}
     */
    T onBeforeConvert(T entity, String collection);

}

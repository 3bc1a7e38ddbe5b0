package dev.storh.spring.data.core;

import dev.storh.StorageRecord;
import dev.storh.spring.data.core.event.AfterConvertEvent;
import dev.storh.spring.data.core.event.BeforeConvertCallback;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.mapping.callback.EntityCallbacks;

/**
 * Where a template's lifecycle events go and which entity callbacks run: both optional, both
 * settable at any time (a template bean gets them from its context). Reading a record into an
 * entity publishes its {@link AfterConvertEvent} here. Events are published on the calling
 * thread. Thread-safe.
 */
final class EntityEvents {

    private final StorhEntityConverter converter;

    private volatile ApplicationEventPublisher publisher;

    private volatile EntityCallbacks callbacks;

    EntityEvents(StorhEntityConverter converter) {
        this.converter = converter;
    }

    void setPublisher(ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    void setCallbacks(EntityCallbacks callbacks) {
        this.callbacks = callbacks;
    }

    boolean hasCallbacks() {
        return this.callbacks != null;
    }

    /**
     * @return the entity after the {@link BeforeConvertCallback}s (auditing), the same one when
     * there are none
     */
    @SuppressWarnings("unchecked")
    <T> T beforeConvert(T entity, String collection) {
        EntityCallbacks current = this.callbacks;
        return (current != null) ? (T) current.callback(BeforeConvertCallback.class, entity, collection) : entity;
    }

    void publish(Object event) {
        ApplicationEventPublisher current = this.publisher;
        if (current != null) {
            current.publishEvent(event);
        }
    }

    /**
     * @return the record as an entity of the type, its {@link AfterConvertEvent} published
     */
    <T> T read(Class<T> type, String collection, StorageRecord record) {
        T entity = this.converter.read(type, record);
        ApplicationEventPublisher current = this.publisher;
        if (current != null) {
            current.publishEvent(new AfterConvertEvent<>(entity, type, collection, record.data()));
        }
        return entity;
    }

}

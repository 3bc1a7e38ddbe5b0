package dev.storh.spring.data.core.event;

import java.util.Map;

import org.springframework.context.ApplicationEvent;
import org.springframework.core.ResolvableType;
import org.springframework.core.ResolvableTypeProvider;

/**
 * Base of the application events {@code StorhTemplate} publishes around writes and reads of
 * entities (as other Spring Data modules publish repository events). An event is generic
 * in its entity type, so {@code @EventListener void on(BeforeSaveEvent<City> event)} receives
 * only {@code City} events. Events are published synchronously on the calling thread, unless
 * the application's event multicaster is asynchronous; an exception thrown by a listener of a
 * {@code Before…} event aborts the operation before anything is written.
 *
 * @param <T> the entity type
 */
public abstract class StorhMappingEvent<T> extends ApplicationEvent implements ResolvableTypeProvider {

    private final Class<T> type;

    private final String collection;

    private final transient Map<String, Object> data;

    /**
     * @param source the entity, or the id for delete events
     * @param type the entity type
     * @param collection the collection name
     * @param data the record's JSON object, or {@code null} when the event has none
     */
    protected StorhMappingEvent(Object source, Class<T> type, String collection, Map<String, Object> data) {
        super(source);
        this.type = type;
        this.collection = collection;
        this.data = data;
    }

    /**
     * @return the entity type
     */
    public Class<T> getType() {
        return this.type;
    }

    /**
     * @return the collection name
     */
    public String getCollection() {
        return this.collection;
    }

    /**
     * The record's JSON object: the map about to be written ({@link BeforeSaveEvent}, mutable:
     * changes are stored), as written ({@link AfterSaveEvent}) or as read
     * ({@link AfterConvertEvent}).
     * @return the data, or {@code null} for events without one
     */
    public Map<String, Object> getData() {
        return this.data;
    }

    @Override
    public ResolvableType getResolvableType() {
        return ResolvableType.forClassWithGenerics(getClass(), this.type);
    }

}

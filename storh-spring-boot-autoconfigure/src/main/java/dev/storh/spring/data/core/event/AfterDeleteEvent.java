package dev.storh.spring.data.core.event;

/**
 * Published after a record was deleted (not when no record had the id).
 *
 * @param <T> the entity type
 */
public class AfterDeleteEvent<T> extends StorhMappingEvent<T> {

    /**
     * @param id the record id (UUIDv7 text)
     * @param type the entity type
     * @param collection the collection name
     */
    public AfterDeleteEvent(String id, Class<T> type, String collection) {
        super(id, type, collection, null);
    }

    /**
     * @return the id of the record
     */
    public String getId() {
        return (String) getSource();
    }

}

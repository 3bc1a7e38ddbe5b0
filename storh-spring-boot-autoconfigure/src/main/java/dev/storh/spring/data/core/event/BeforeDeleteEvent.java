package dev.storh.spring.data.core.event;

/**
 * Published before a record is deleted by id, entity or query; a listener exception aborts the delete.
 *
 * @param <T> the entity type
 */
public class BeforeDeleteEvent<T> extends StorhMappingEvent<T> {

    /**
     * @param id the record id (UUIDv7 text)
     * @param type the entity type
     * @param collection the collection name
     */
    public BeforeDeleteEvent(String id, Class<T> type, String collection) {
        super(id, type, collection, null);
    }

    /**
     * @return the id of the record
     */
    public String getId() {
        return (String) getSource();
    }

}

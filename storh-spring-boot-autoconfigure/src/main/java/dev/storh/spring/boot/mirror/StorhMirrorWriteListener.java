package dev.storh.spring.boot.mirror;

import java.util.List;
import java.util.Set;

import dev.storh.spring.data.core.event.AfterDeleteEvent;
import dev.storh.spring.data.core.event.AfterSaveEvent;
import dev.storh.spring.data.core.event.StorhMappingEvent;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationListener;

/**
 * Push-on-write: after a repository or template saves or deletes an entity of a mirrored
 * collection, flushes that id to the mirror on the writing thread, so a SQL query right after
 * the write sees it. A failed flush is logged at WARN and does not fail the write (the next
 * scheduled push repairs the row).
 */
public class StorhMirrorWriteListener implements ApplicationListener<StorhMappingEvent<?>> {

    private static final Log logger = LogFactory.getLog(StorhMirrorWriteListener.class);

    private final StorhMirror mirror;

    private final StorhMappingContext mappingContext;

    private final Set<String> collections;

    /**
     * @param mirror the mirror
     * @param mappingContext reads the saved entity's id
     * @param collections the mirrored collections
     */
    public StorhMirrorWriteListener(StorhMirror mirror, StorhMappingContext mappingContext, Set<String> collections) {
        this.mirror = mirror;
        this.mappingContext = mappingContext;
        this.collections = Set.copyOf(collections);
    }

    @Override
    public void onApplicationEvent(StorhMappingEvent<?> event) {
        if (!this.collections.contains(event.getCollection())) {
            return;
        }
        String id = null;
        if (event instanceof AfterDeleteEvent<?> deleted) {
            id = deleted.getId();
        }
        else if (event instanceof AfterSaveEvent<?> saved) {
            Object entity = saved.getEntity();
            StorhPersistentEntity<?> persistent = this.mappingContext.getRequiredPersistentEntity(entity.getClass());
            Object identifier = persistent.getIdentifierAccessor(entity).getIdentifier();
            id = (identifier != null) ? identifier.toString() : null;
        }
        if (id == null) {
            return;
        }
        try {
            this.mirror.flush(event.getCollection(), List.of(id));
        }
        catch (RuntimeException ex) {
            logger.warn("storh mirror flush of " + event.getCollection() + " " + id + " failed: " + ex.getMessage(), ex);
        }
    }

}

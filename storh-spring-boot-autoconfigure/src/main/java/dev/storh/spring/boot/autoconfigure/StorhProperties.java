package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.util.Map;

import dev.storh.StorageRoot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.StringUtils;

/**
 * Configuration properties for storh, prefix {@code storh}. Immutable, bound through its
 * constructor; the maps keep the order of the configuration.
 *
 * @param root Folder holding the collections, or the namespace folders when a namespace is set. A
 *     relative path is resolved against the working directory.
 * @param namespace Sub-folder of the root holding this application's collections; characters
 *     outside [A-Za-z0-9_.-] are replaced by '-'. When unset, collections live directly under the
 *     root.
 * @param repositories Repository settings.
 * @param cache Record cache shared by every collection without a cache of its own.
 * @param collections Collections opened at startup, by collection name, with their indexes and
 *     cache.
 * @param logs Segmented logs, by name; each becomes a SegmentedLog bean of that name.
 * @param queues Job queues, by name; each becomes a Queue bean of that name.
 * @param verify Scheduled verification of every store.
 * @param maintenance Background upkeep: log retention, requeue of timed-out jobs, log partition
 *     moves.
 */
@ConfigurationProperties("storh")
public record StorhProperties(@DefaultValue("storh-data") Path root, String namespace,
        @DefaultValue Repositories repositories, @NestedConfigurationProperty @DefaultValue StorhCacheProperties cache,
        @DefaultValue Map<String, StorhCollectionProperties> collections,
        @DefaultValue Map<String, StorhLogProperties> logs, @DefaultValue Map<String, StorhQueueProperties> queues,
        @NestedConfigurationProperty @DefaultValue StorhVerifyProperties verify,
        @NestedConfigurationProperty @DefaultValue StorhMaintenanceProperties maintenance) {

    /**
     * The folder holding one sub-folder per collection: {@code storageRoot.path(namespace)} when a
     * namespace is set, else {@code storageRoot.root()}.
     * @param storageRoot the storage root
     * @return the collections folder
     */
    public Path collectionsFolder(StorageRoot storageRoot) {
        return StringUtils.hasText(this.namespace) ? storageRoot.path(this.namespace) : storageRoot.root();
    }

    /**
     * Repository settings, prefix {@code storh.repositories}.
     *
     * @param enabled Whether to create storh repositories for the application's packages when the
     *     application declares no EnableStorhRepositories annotation.
     */
    public record Repositories(@DefaultValue("true") boolean enabled) {

    }

}

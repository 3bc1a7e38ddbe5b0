package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.storh.StorageRoot;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.StringUtils;

/**
 * Configuration properties for storh, prefix {@code storh}.
 */
@ConfigurationProperties("storh")
public class StorhProperties {

    /**
     * Folder holding the collections, or the namespace folders when a namespace is set. A relative
     * path is resolved against the working directory.
     */
    private Path root = Path.of("storh-data");

    /**
     * Sub-folder of the root holding this application's collections; characters outside
     * [A-Za-z0-9_.-] are replaced by '-'. When unset, collections live directly under the root.
     */
    private String namespace;

    private final Repositories repositories = new Repositories();

    public Path getRoot() {
        return this.root;
    }

    public void setRoot(Path root) {
        this.root = root;
    }

    public String getNamespace() {
        return this.namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public Repositories getRepositories() {
        return this.repositories;
    }

    /**
     * Record cache shared by every collection without a cache of its own.
     */
    @NestedConfigurationProperty
    private final StorhCacheProperties cache = new StorhCacheProperties();

    /**
     * Collections opened at startup, by collection name, with their indexes and cache.
     */
    private final Map<String, StorhCollectionProperties> collections = new LinkedHashMap<>();

    /**
     * Segmented logs, by name; each becomes a SegmentedLog bean of that name.
     */
    private final Map<String, StorhLogProperties> logs = new LinkedHashMap<>();

    /**
     * Job queues, by name; each becomes a Queue bean of that name.
     */
    private final Map<String, StorhQueueProperties> queues = new LinkedHashMap<>();

    /**
     * Scheduled verification of every store.
     */
    @NestedConfigurationProperty
    private final StorhVerifyProperties verify = new StorhVerifyProperties();

    /**
     * Background upkeep: log retention, requeue of timed-out jobs, log partition moves.
     */
    @NestedConfigurationProperty
    private final StorhMaintenanceProperties maintenance = new StorhMaintenanceProperties();

    /**
     * @return the shared record cache settings ({@code storh.cache})
     */
    public StorhCacheProperties getCache() {
        return this.cache;
    }

    /**
     * @return per-collection settings by collection name ({@code storh.collections})
     */
    public Map<String, StorhCollectionProperties> getCollections() {
        return this.collections;
    }

    /**
     * @return log settings by log name ({@code storh.logs})
     */
    public Map<String, StorhLogProperties> getLogs() {
        return this.logs;
    }

    /**
     * @return queue settings by queue name ({@code storh.queues})
     */
    public Map<String, StorhQueueProperties> getQueues() {
        return this.queues;
    }

    /**
     * @return the scheduled verify settings ({@code storh.verify})
     */
    public StorhVerifyProperties getVerify() {
        return this.verify;
    }

    /**
     * @return the background upkeep settings ({@code storh.maintenance})
     */
    public StorhMaintenanceProperties getMaintenance() {
        return this.maintenance;
    }

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
     */
    public static class Repositories {

        /**
         * Whether to create storh repositories for the application's packages when the
         * application declares no EnableStorhRepositories annotation.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

    }

}

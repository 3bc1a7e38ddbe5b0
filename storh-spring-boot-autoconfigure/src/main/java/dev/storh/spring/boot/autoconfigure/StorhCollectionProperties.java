package dev.storh.spring.boot.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of one DocStore collection, {@code storh.collections.<name>}. A configured collection
 * is opened at startup, its indexes are defined and synchronised, and it is shown in health,
 * metrics and the {@code storh} endpoint even before the application first uses it.
 */
public class StorhCollectionProperties {

    /**
     * Indexed fields of the collection, defined and built at startup (existing definitions are
     * kept).
     */
    private List<Index> indexes = new ArrayList<>();

    /**
     * This collection's own record cache. When 'max-entries' is unset, the collection uses the
     * cache of 'storh.cache'.
     */
    @NestedConfigurationProperty
    private StorhCacheProperties cache = new StorhCacheProperties();

    /**
     * @return the index definitions, in order
     */
    public List<Index> getIndexes() {
        return this.indexes;
    }

    /**
     * @param indexes the index definitions
     */
    public void setIndexes(List<Index> indexes) {
        this.indexes = indexes;
    }

    /**
     * @return the collection's own cache settings
     */
    public StorhCacheProperties getCache() {
        return this.cache;
    }

    /**
     * @param cache the collection's own cache settings
     */
    public void setCache(StorhCacheProperties cache) {
        this.cache = cache;
    }

    /**
     * One indexed field, {@code storh.collections.<name>.indexes[i]}.
     */
    public static class Index {

        /**
         * Field name (top-level key of the record's data).
         */
        private String field;

        /**
         * Whether two records may not share a value of the field.
         */
        private boolean unique;

        /**
         * Whether to keep a range index for gt/lt/between queries and ordering.
         */
        private boolean range;

        /**
         * @return the field name
         */
        public String getField() {
            return this.field;
        }

        /**
         * @param field the field name
         */
        public void setField(String field) {
            this.field = field;
        }

        /**
         * @return whether values are unique
         */
        public boolean isUnique() {
            return this.unique;
        }

        /**
         * @param unique whether values are unique
         */
        public void setUnique(boolean unique) {
            this.unique = unique;
        }

        /**
         * @return whether a range index is kept
         */
        public boolean isRange() {
            return this.range;
        }

        /**
         * @param range whether a range index is kept
         */
        public void setRange(boolean range) {
            this.range = range;
        }

    }

}

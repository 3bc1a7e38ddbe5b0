package dev.storh.spring.boot.autoconfigure;

import java.util.List;

import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of one DocStore collection, {@code storh.collections.<name>}. A configured collection
 * is opened at startup, its indexes are defined and synchronised, and it is shown in health,
 * metrics and the {@code storh} endpoint even before the application first uses it. Immutable,
 * bound through its constructor.
 *
 * @param indexes Indexed fields of the collection, defined and built at startup (existing
 *     definitions are kept).
 * @param cache This collection's own record cache. When 'max-entries' is unset, the collection
 *     uses the cache of 'storh.cache'.
 * @param indexLayout Layout of the collection's index files: 'original' (value files the PHP
 *     original reads) or 'value-deltas' (a write appends to a small delta beside a value file, so it
 *     costs the same however many records share the value; not for a root the original also
 *     opens; opt-in). When unset, the collection keeps the layout its index manifest records, and a
 *     new collection gets the original's. Switching away from value deltas rebuilds every index.
 */
public record StorhCollectionProperties(@DefaultValue List<Index> indexes,
        @NestedConfigurationProperty @DefaultValue StorhCacheProperties cache, IndexLayout indexLayout) {

    /** The layout of a collection's index files, {@code storh.collections.<name>.index-layout}. */
    public enum IndexLayout {

        /** The original's value files, readable by the PHP original. */
        ORIGINAL,

        /** storh's value deltas beside the value files. */
        VALUE_DELTAS

    }

    /**
     * One indexed field, {@code storh.collections.<name>.indexes[i]}.
     *
     * @param field Field name (top-level key of the record's data).
     * @param unique Whether two records may not share a value of the field.
     * @param range Whether to keep a range index for gt/lt/between queries and ordering.
     */
    public record Index(String field, boolean unique, boolean range) {

    }

}

package dev.storh.doc.index;

import java.util.List;

/**
 * The fluent step of {@link IndexManager#field(String)}: flag the field, declare the next one, or
 * sync. {@code field("slug").unique().field("kind").field("at").range().sync()}.
 */
public final class IndexFieldBuilder {

    private final IndexManager manager;
    private final String field;

    IndexFieldBuilder(IndexManager manager, String field) {
        this.manager = manager;
        this.field = field;
    }

    /** @return the manager, with a plain equality index on this field */
    public IndexManager index() {
        return manager;
    }

    /** @return the manager, with a unique index on this field */
    public IndexManager unique() {
        return manager.defineField(field, true, false);
    }

    /** @return the manager, with a range index on this field */
    public IndexManager range() {
        return manager.defineField(field, false, true);
    }

    /** @param next the next field @return its builder (this field keeps a plain index) */
    public IndexFieldBuilder field(String next) {
        return manager.field(next);
    }

    /** @return the definitions in force after syncing */
    public List<IndexDefinition> sync() {
        return manager.sync();
    }
}

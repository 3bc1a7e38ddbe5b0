package dev.storh.schema;

import dev.storh.SchemaViolationException;
import dev.storh.StorageException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The optional schema of a DocStore collection:
 * field types, required fields and index flags. Immutable: every method returns a new schema
 * (or a field step), so a schema can be a shared constant.
 *
 * <pre>
 * Schema.collection("cities").string("name").range().string("country").index()
 *       .number("latitude").range().integer("population").range().bool("coastal")
 *       .mixed("meta").required("name", "country");
 * </pre>
 *
 * {@link #validate} runs before anything is written; a store opened with a schema defines the
 * schema's indexes and syncs them. Redeclaring a field changes its type and keeps its flags.
 */
public final class Schema {

    private final String collection;
    private final Map<String, SchemaField> fields;

    private Schema(String collection, Map<String, SchemaField> fields) {
        this.collection = collection;
        this.fields = fields;
    }

    /**
     * @param name the collection the schema belongs to
     * @return an empty schema
     * @throws StorageException {@code "Schema collection cannot be empty."}
     */
    public static Schema collection(String name) {
        if (name == null || name.isBlank()) {
            throw new StorageException("Schema collection cannot be empty.");
        }
        return new Schema(name, Map.of());
    }

    /**
     * @return the collection name
     */
    public String collectionName() {
        return collection;
    }

    /**
     * @return the declared fields in declaration order
     */
    public List<SchemaField> fields() {
        return List.copyOf(fields.values());
    }

    /** @param name field @return the step to flag a string field */
    public FieldStep string(String name) {
        return declare(name, FieldType.STRING);
    }

    /** @param name field @return the step to flag an integer field (the original's {@code int}) */
    public FieldStep integer(String name) {
        return declare(name, FieldType.INTEGER);
    }

    /** @param name field @return the step to flag a number field (the original's {@code float}) */
    public FieldStep number(String name) {
        return declare(name, FieldType.NUMBER);
    }

    /** @param name field @return the step to flag a boolean field */
    public FieldStep bool(String name) {
        return declare(name, FieldType.BOOL);
    }

    /** @param name field @return the step to flag a field of any type */
    public FieldStep mixed(String name) {
        return declare(name, FieldType.MIXED);
    }

    /**
     * @param names fields that must be present; unknown ones are declared {@code mixed}
     * @return the schema with those fields required
     */
    public Schema required(String... names) {
        return required(List.of(names));
    }

    /**
     * @param names fields that must be present; unknown ones are declared {@code mixed}
     * @return the schema with those fields required
     */
    public Schema required(Collection<String> names) {
        Schema s = this;
        for (String n : names) {
            SchemaField f = s.fields.containsKey(checkName(n)) ? s.fields.get(n)
                    : new SchemaField(n, FieldType.MIXED, false, false, false, false);
            s = s.put(new SchemaField(n, f.type(), f.index(), f.unique(), f.range(), true));
        }
        return s;
    }

    /**
     * Checks data against the schema, fields in declaration order; the first failure throws.
     *
     * @param data record data
     * @throws SchemaViolationException {@code "Missing required schema field: <f>"} or
     *     {@code "Schema field <f> must be <type>."}
     */
    public void validate(Map<String, ?> data) {
        for (SchemaField f : fields.values()) {
            if (!data.containsKey(f.name())) {
                if (f.required()) {
                    throw new SchemaViolationException("Missing required schema field: " + f.name()
                            + " (required in collection " + collection + ")", f.name());
                }
                continue;
            }
            Object v = data.get(f.name());
            if (v != null && !f.type().accepts(v)) {
                throw new SchemaViolationException("Schema field " + f.name() + " must be " + f.type().label() + ". Got: "
                        + v.getClass().getSimpleName() + " " + v, f.name());
            }
        }
    }

    private FieldStep declare(String name, FieldType type) {
        SchemaField existing = fields.get(checkName(name));
        SchemaField f = existing == null ? new SchemaField(name, type, false, false, false, false)
                : new SchemaField(name, type, existing.index(), existing.unique(), existing.range(), existing.required());
        return new FieldStep(put(f), name);
    }

    private Schema put(SchemaField f) {
        Map<String, SchemaField> next = new LinkedHashMap<>(fields);
        next.put(f.name(), f);
        return new Schema(collection, java.util.Collections.unmodifiableMap(next));
    }

    private static String checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new StorageException("Schema field cannot be empty.");
        }
        return name;
    }

    @Override
    public String toString() {
        return "Schema[" + collection + ", " + fields.values() + "]";
    }

    /** The step after declaring a field: flag it, or declare the next field. */
    public static final class FieldStep {
        private final Schema schema;
        private final String name;

        private FieldStep(Schema schema, String name) {
            this.schema = schema;
            this.name = name;
        }

        private Schema flag(boolean index, boolean unique, boolean range, boolean required) {
            SchemaField f = schema.fields.get(name);
            return schema.put(new SchemaField(name, f.type(), f.index() || index, f.unique() || unique,
                    f.range() || range, f.required() || required));
        }

        /** @return the schema with an equality index on this field */
        public Schema index() {
            return flag(true, false, false, false);
        }

        /** @return the schema with a unique index on this field */
        public Schema unique() {
            return flag(false, true, false, false);
        }

        /** @return the schema with a range index on this field */
        public Schema range() {
            return flag(false, false, true, false);
        }

        /** @return the schema with this field required */
        public Schema required() {
            return flag(false, false, false, true);
        }

        /** @param names fields to require @return the schema */
        public Schema required(String... names) {
            return schema.required(names);
        }

        /** @param next field @return the next field's step */
        public FieldStep string(String next) {
            return schema.string(next);
        }

        /** @param next field @return the next field's step */
        public FieldStep integer(String next) {
            return schema.integer(next);
        }

        /** @param next field @return the next field's step */
        public FieldStep number(String next) {
            return schema.number(next);
        }

        /** @param next field @return the next field's step */
        public FieldStep bool(String next) {
            return schema.bool(next);
        }

        /** @param next field @return the next field's step */
        public FieldStep mixed(String next) {
            return schema.mixed(next);
        }

        /** @return the schema as declared so far */
        public Schema done() {
            return schema;
        }

        /** @param data record data @see Schema#validate */
        public void validate(Map<String, ?> data) {
            schema.validate(data);
        }
    }
}

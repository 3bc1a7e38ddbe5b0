package dev.storh.spring.data.core;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import dev.storh.StorageRecord;
import dev.storh.query.Values;
import dev.storh.spring.data.mapping.StorhMappingContext;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.mapping.StorhPersistentProperty;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

import org.springframework.dao.DataRetrievalFailureException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.util.Assert;

/**
 * Converts entities (Java records and POJOs) to the JSON object stored in a record file and back,
 * with a Jackson 3 {@link JsonMapper}.
 * <p>
 * Written shape: the entity serialised by Jackson as a JSON object, minus the id property, whose
 * value lives in the record envelope (the file name), and minus Spring Data {@code @Transient}
 * properties; numbers are brought to the JSON model the record is read back as ({@code int},
 * {@code short}, {@code byte} become {@code Long}, {@code float} the {@code Double} of its
 * shortest text), so indexes see what a later read sees. Read shape: the stored object plus the id (text, or a
 * {@link UUID} for a {@code UUID} id property) under the id property's name, deserialised by
 * Jackson; unknown keys are ignored. The JSON names of the id, {@code @Version} and
 * {@code @Transient} properties must be their Java names (do not rename them with
 * {@code @JsonProperty}). Derived queries, sorts and {@code @Indexed} name the stored key after
 * the Java property, so a property renamed by {@code @JsonProperty} or a naming strategy is
 * stored under its JSON name but cannot be queried or indexed. How each Java type maps to JSON
 * is listed in the project's {@code docs/types.md}. Thread-safe.
 */
public class StorhEntityConverter {

    private static final TypeReference<LinkedHashMap<String, Object>> JSON_OBJECT = new TypeReference<>() {
    };

    private final StorhMappingContext mappingContext;

    private final JsonMapper jsonMapper;

    private final ConcurrentHashMap<Class<?>, StorhPersistentEntity<?>> entities = new ConcurrentHashMap<>();

    private final EntityReadCache reads = new EntityReadCache();

    private final BiFunction<Class<?>, StorageRecord, Object> converting = this::convert;

    /**
     * Create a converter using {@link #defaultJsonMapper()}.
     * @param mappingContext the mapping context
     */
    public StorhEntityConverter(StorhMappingContext mappingContext) {
        this(mappingContext, defaultJsonMapper());
    }

    /**
     * Create a converter using the given mapper as is. It should not fail on unknown properties,
     * or records written by a newer entity version cannot be read.
     * @param mappingContext the mapping context
     * @param jsonMapper the mapper
     */
    public StorhEntityConverter(StorhMappingContext mappingContext, JsonMapper jsonMapper) {
        Assert.notNull(mappingContext, "'mappingContext' must not be null");
        Assert.notNull(jsonMapper, "'jsonMapper' must not be null");
        this.mappingContext = mappingContext;
        this.jsonMapper = jsonMapper;
    }

    /**
     * The mapper used when none is given: Jackson 3 defaults with {@link #forStorage} applied, and
     * properties in their declaration order.
     * @return a new mapper
     */
    public static JsonMapper defaultJsonMapper() {
        return forStorage(JsonMapper.builder().disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY));
    }

    /**
     * The settings storage needs on top of an application's mapper: unknown properties are
     * ignored (records written by a newer entity version still read); dates, times and durations
     * are written as ISO-8601 text, never as numeric timestamps or arrays, at full precision, with
     * their own offset and zone id, and read back unchanged (an {@code OffsetDateTime} keeps its
     * offset, a {@code ZonedDateTime} its zone); an {@link Instant} is
     * written in UTC with exactly nine fraction digits ({@code 2025-01-01T10:00:00.000000000Z}),
     * so that the text of two instants sorts like the instants (the ISO default drops zero
     * fractions, and {@code "…00Z"} would sort after {@code "…00.5Z"}). Any ISO-8601 instant,
     * with or without fraction, still reads.
     * @param builder the mapper to start from, e.g. {@code applicationMapper.rebuild()}
     * @return a new mapper
     */
    public static JsonMapper forStorage(JsonMapper.Builder builder) {
        Assert.notNull(builder, "'builder' must not be null");
        SimpleModule instants = new SimpleModule("storh-instants").addSerializer(Instant.class,
                new FixedInstantSerializer());
        return builder.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DateTimeFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .disable(DateTimeFeature.WRITE_DATE_KEYS_AS_TIMESTAMPS)
            .disable(DateTimeFeature.WRITE_DATES_WITH_CONTEXT_TIME_ZONE)
            .enable(DateTimeFeature.WRITE_DATES_WITH_ZONE_ID)
            .disable(DateTimeFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .disable(DateTimeFeature.NORMALIZE_DESERIALIZED_ZONE_ID)
            .disable(DateTimeFeature.TRUNCATE_TO_MSECS_ON_WRITE)
            .disable(DateTimeFeature.TRUNCATE_TO_MSECS_ON_READ)
            .addModule(instants)
            .build();
    }

    /**
     * @return the mapping context
     */
    public StorhMappingContext getMappingContext() {
        return this.mappingContext;
    }

    /**
     * @return the mapper
     */
    public JsonMapper getJsonMapper() {
        return this.jsonMapper;
    }

    /**
     * The mapping of a type used as a document, checked to have a {@code String} id.
     * @param type the entity type
     * @return the entity, never {@code null}
     * @throws org.springframework.data.mapping.MappingException naming the type when it has no id,
     * a non-{@code String} id, or an invalid collection name
     */
    public StorhPersistentEntity<?> getRequiredEntity(Class<?> type) {
        Assert.notNull(type, "'type' must not be null");
        StorhPersistentEntity<?> entity = this.entities.get(type);
        if (entity == null) {
            entity = this.mappingContext.getRequiredPersistentEntity(type);
            entity.getRequiredDocumentIdProperty();
            this.entities.putIfAbsent(type, entity);
        }
        return entity;
    }

    /**
     * The id value of an entity as text.
     * @param entity the entity
     * @return the id ({@code UUID.toString()} for a {@code UUID} id), or {@code null} when unset
     */
    public String getId(Object entity) {
        Assert.notNull(entity, "'entity' must not be null");
        StorhPersistentEntity<?> persistentEntity = getRequiredEntity(entity.getClass());
        StorhPersistentProperty idProperty = persistentEntity.getRequiredDocumentIdProperty();
        Object id = persistentEntity.getPropertyAccessor(entity).getProperty(idProperty);
        return (id != null) ? id.toString() : null;
    }

    /**
     * The {@code @Version} value of an entity.
     * @param entity the entity
     * @return the version ({@code 0} for an unset primitive), {@code null} when the wrapper is
     * unset or the type has no {@code @Version} property
     */
    public Long getVersion(Object entity) {
        Assert.notNull(entity, "'entity' must not be null");
        StorhPersistentEntity<?> persistentEntity = getRequiredEntity(entity.getClass());
        StorhPersistentProperty version = persistentEntity.getDocumentVersionProperty();
        if (version == null) {
            return null;
        }
        Object value = persistentEntity.getPropertyAccessor(entity).getProperty(version);
        return (value != null) ? ((Number) value).longValue() : null;
    }

    /**
     * The {@code @Version} value held by a stored record.
     * @param type the entity type
     * @param data the record's JSON object
     * @return the stored version, or {@code null} when the key is missing, null or not an integer
     */
    public Long getStoredVersion(Class<?> type, Map<String, Object> data) {
        StorhPersistentProperty version = getRequiredEntity(type).getDocumentVersionProperty();
        if (version == null) {
            return null;
        }
        Object value = data.get(version.getName());
        return (value instanceof Long || value instanceof Integer) ? ((Number) value).longValue() : null;
    }

    /**
     * The JSON object to store for an entity, without its id.
     * @param entity the entity
     * @return a new mutable map in the JSON model (numbers may be any {@code Number} type)
     * @throws InvalidDataAccessApiUsageException when Jackson cannot write the entity as a JSON
     * object
     */
    public Map<String, Object> toData(Object entity) {
        StorhPersistentEntity<?> persistentEntity = getRequiredEntity(entity.getClass());
        Map<String, Object> data;
        try {
            data = this.jsonMapper.convertValue(entity, JSON_OBJECT);
        }
        catch (JacksonException | IllegalArgumentException ex) {
            throw new InvalidDataAccessApiUsageException(
                    "Cannot write " + entity.getClass().getName() + " as a JSON object: " + ex.getMessage(), ex);
        }
        if (data == null) {
            throw new InvalidDataAccessApiUsageException(
                    "Cannot write " + entity.getClass().getName() + " as a JSON object: Jackson wrote null");
        }
        data.remove(persistentEntity.getRequiredDocumentIdProperty().getName());
        for (String name : persistentEntity.getTransientPropertyNames()) {
            data.remove(name);
        }
        data.replaceAll((key, value) -> jsonModel(value));
        return data;
    }

    /**
     * A value Jackson wrote, in the JSON model a stored record is read back as: numbers through
     * core's {@link Values#normalise}, lists and maps element by element (new mutable copies).
     */
    private static Object jsonModel(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, element) -> copy.put(String.valueOf(key), jsonModel(element)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach((element) -> copy.add(jsonModel(element)));
            return copy;
        }
        return (value instanceof Number) ? Values.normalise(value) : value;
    }

    /**
     * Read a stored record as an entity.
     * @param <T> the entity type
     * @param type the entity type
     * @param record the record
     * @return an entity with its id property set to the record id: a new one, except for a Java
     * record of immutable values (strings, numbers, enums, {@code UUID}s, {@code java.time}
     * values, nested such records), which is the one read before from this same record instance
     * if any (a store hands out one instance per unchanged file; up to 16,384 are kept)
     * @throws DataRetrievalFailureException naming the id, the collection and the type when the
     * stored object does not fit the type
     */
    public <T> T read(Class<T> type, StorageRecord record) {
        return this.reads.read(type, record, this.converting);
    }

    private <T> T convert(Class<T> type, StorageRecord record) {
        StorhPersistentEntity<?> persistentEntity = getRequiredEntity(type);
        Map<String, Object> source = new LinkedHashMap<>(record.data());
        source.put(persistentEntity.getRequiredDocumentIdProperty().getName(), record.id());
        try {
            return this.jsonMapper.convertValue(source, type);
        }
        catch (JacksonException | IllegalArgumentException ex) {
            throw new DataRetrievalFailureException("Record " + record.id() + " in collection '"
                    + persistentEntity.getCollection() + "' cannot be read as " + type.getName() + ": "
                    + ex.getMessage(), ex);
        }
    }

    /**
     * The entity as saved: when the id (and the {@code @Version}, if any) property is mutable, it
     * is set on the instance itself and the instance is returned; a Java record is copied through
     * its canonical constructor with the stored id and version and its other components as they
     * are; any other entity (final fields) is read from the stored record.
     * @param <T> the entity type
     * @param entity the entity that was saved
     * @param stored the record as stored
     * @return the entity carrying the stored id and version
     */
    @SuppressWarnings("unchecked")
    public <T> T withStoredId(T entity, StorageRecord stored) {
        StorhPersistentEntity<?> persistentEntity = getRequiredEntity(entity.getClass());
        StorhPersistentProperty idProperty = persistentEntity.getRequiredDocumentIdProperty();
        StorhPersistentProperty version = persistentEntity.getDocumentVersionProperty();
        if (!idProperty.isImmutable() && (version == null || !version.isImmutable())) {
            var accessor = persistentEntity.getPropertyAccessor(entity);
            accessor.setProperty(idProperty,
                    (idProperty.getType() == UUID.class) ? UUID.fromString(stored.id()) : stored.id());
            if (version != null) {
                Long storedVersion = getStoredVersion(entity.getClass(), stored.data());
                accessor.setProperty(version, (storedVersion != null) ? storedVersion : 0L);
            }
            return entity;
        }
        Map<String, Object> replaced = new LinkedHashMap<>();
        replaced.put(idProperty.getName(), (idProperty.getType() == UUID.class) ? UUID.fromString(stored.id()) : stored.id());
        if (version != null) {
            Long storedVersion = getStoredVersion(entity.getClass(), stored.data());
            replaced.put(version.getName(), (storedVersion != null) ? storedVersion : 0L);
        }
        T copy = RecordCopies.with(entity, replaced);
        return (copy != null) ? copy : read((Class<T>) entity.getClass(), stored);
    }

    /**
     * A query parameter in the JSON model, as Jackson writes it, so that it compares with stored
     * values the way core's strict, type-sensitive equality expects: strings, booleans and
     * numbers stay as they are (core turns {@code int} into {@code Long}, {@code float} into
     * {@code Double}), enums become their names, {@code UUID}s and dates the text the
     * application's mapper writes, collections and arrays lists, beans maps.
     * @param value the value, may be {@code null}
     * @return the JSON model value
     * @throws InvalidDataAccessApiUsageException when Jackson cannot write the value
     */
    public Object toJsonValue(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Number) {
            return value;
        }
        Map<String, Object> holder = new LinkedHashMap<>();
        holder.put("value", value);
        try {
            return jsonModel(this.jsonMapper.convertValue(holder, JSON_OBJECT).get("value"));
        }
        catch (JacksonException | IllegalArgumentException ex) {
            throw new InvalidDataAccessApiUsageException(
                    "Cannot write query value of type " + value.getClass().getName() + " as JSON: " + ex.getMessage(),
                    ex);
        }
    }

    /**
     * Writes an instant as ISO-8601 UTC text with exactly nine fraction digits.
     */
    private static final class FixedInstantSerializer extends StdSerializer<Instant> {

        private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder().appendInstant(9)
            .toFormatter();

        FixedInstantSerializer() {
            super(Instant.class);
        }

        @Override
        public void serialize(Instant value, JsonGenerator generator, SerializationContext context) {
            generator.writeString(FORMAT.format(value));
        }

    }

}

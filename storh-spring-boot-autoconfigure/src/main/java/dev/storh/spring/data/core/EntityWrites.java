package dev.storh.spring.data.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import dev.storh.StorageRecord;
import dev.storh.UniqueConstraintException;
import dev.storh.query.Values;
import dev.storh.spring.data.core.event.AfterDeleteEvent;
import dev.storh.spring.data.core.event.AfterSaveEvent;
import dev.storh.spring.data.core.event.BeforeConvertEvent;
import dev.storh.spring.data.core.event.BeforeDeleteEvent;
import dev.storh.spring.data.core.event.BeforeSaveEvent;
import dev.storh.spring.data.mapping.StorhPersistentEntity;
import dev.storh.spring.data.mapping.StorhPersistentProperty;
import dev.storh.spring.transaction.CollectionAccess;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The template's writes: one entity ({@link #save}) or a batch ({@link #saveAll}) turned into
 * records, with {@code @Version} and insert checks made under the collection write lock, and
 * versioned deletes. A {@code null} value of an {@code @Indexed(unique = true)} property is left
 * out of the stored record, so any number of entities may have it unset (a unique index holds
 * values, not absences). Thread-safe.
 */
final class EntityWrites {

    private final StorhEntityConverter converter;

    private final EntityEvents events;

    private final Function<Class<?>, CollectionAccess> stores;

    private final StorhExceptionTranslator translator;

    EntityWrites(StorhEntityConverter converter, EntityEvents events, Function<Class<?>, CollectionAccess> stores,
            StorhExceptionTranslator translator) {
        this.converter = converter;
        this.events = events;
        this.stores = stores;
        this.translator = translator;
    }

    /** One entity made ready to store: its record data, id and the version it expects. */
    private record Pending<T>(T entity, Class<T> type, StorhPersistentEntity<?> persistent, String id,
            Map<String, Object> data, Long expected, boolean isNew) {

        String collection() {
            return this.persistent.getCollection();
        }

        boolean versioned() {
            return this.persistent.getDocumentVersionProperty() != null;
        }

    }

    /**
     * Stores one entity; with {@code insert}, fails when its id exists.
     */
    <T> T save(T original, boolean insert) {
        Pending<T> pending = prepare(original);
        this.events.publish(new BeforeSaveEvent<>(pending.entity(), pending.type(), pending.collection(),
                pending.data()));
        CollectionAccess store = this.stores.apply(pending.type());
        StorageRecord stored = this.translator.translated(() -> {
            if (pending.id() == null || (!insert && !pending.versioned())) {
                return (pending.id() != null) ? store.put(pending.data(), pending.id()) : store.put(pending.data());
            }
            // read-compare-write under the collection write lock (re-entrant for put)
            return store.withWriteLock(() -> {
                Optional<StorageRecord> current = store.get(pending.id());
                if (insert && current.isPresent()) {
                    throw new DuplicateKeyException("Record " + pending.id() + " already exists in collection '"
                            + pending.collection() + "' (" + store.collectionRoot() + "); use save to replace it");
                }
                checkVersion(pending, current);
                return store.put(pending.data(), pending.id());
            });
        });
        return saved(pending, stored);
    }

    /**
     * Stores a batch of entities of one collection all or nothing: every entity is converted and
     * checked (its {@code @Version} against the stored record, its unique values against the
     * other entities of the batch and against the stored records, the collection's schema) before
     * the first record is written, under one hold of the collection write lock.
     */
    <T> List<T> saveAll(Iterable<T> entities) {
        Assert.notNull(entities, "'entities' must not be null");
        List<Pending<T>> batch = new ArrayList<>();
        for (T entity : entities) {
            batch.add(prepare(entity));
        }
        if (batch.isEmpty()) {
            return List.of();
        }
        Pending<T> first = batch.get(0);
        for (Pending<T> pending : batch) {
            if (!pending.collection().equals(first.collection())) {
                throw new InvalidDataAccessApiUsageException("Cannot save a batch across collections: "
                        + pending.type().getName() + " goes to '" + pending.collection() + "', "
                        + first.type().getName() + " to '" + first.collection() + "'; save each collection's batch");
            }
        }
        for (Pending<T> pending : batch) {
            this.events.publish(new BeforeSaveEvent<>(pending.entity(), pending.type(), pending.collection(),
                    pending.data()));
        }
        CollectionAccess store = this.stores.apply(first.type());
        List<StorageRecord> stored = this.translator.translated(() -> store.withWriteLock(() -> {
            checkBatch(store, batch);
            List<Map<String, Object>> items = new ArrayList<>(batch.size());
            for (Pending<T> pending : batch) {
                Map<String, Object> item = new LinkedHashMap<>();
                if (pending.id() != null) {
                    item.put("id", pending.id());
                }
                item.put("data", pending.data());
                items.add(item);
            }
            if (!store.putManyChecksUnique()) {
                return store.putMany(items);
            }
            try {
                return store.putMany(items); // checks the unique values against the store before writing
            }
            catch (UniqueConstraintException ex) {
                throw new DuplicateKeyException("Unique index '" + ex.field() + "' of collection '"
                        + first.collection() + "' (" + store.collectionRoot() + "): value " + ex.value()
                        + " is held by record " + ex.existingId() + "; nothing of the batch was written", ex);
            }
        }));
        List<T> saved = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            saved.add(saved(batch.get(i), stored.get(i)));
        }
        return saved;
    }

    /**
     * Deletes the record of a {@code @Version}ed entity when the stored version equals the
     * entity's, under the collection write lock.
     */
    boolean deleteVersioned(Object entity, String id) {
        Class<?> type = entity.getClass();
        String collection = this.converter.getRequiredEntity(type).getCollection();
        Long expected = this.converter.getVersion(entity);
        CollectionAccess store = this.stores.apply(type);
        this.events.publish(new BeforeDeleteEvent<>(id, type, collection));
        boolean deleted = this.translator.translated(() -> store.withWriteLock(() -> {
            Optional<StorageRecord> current = store.get(id);
            if (current.isEmpty()) {
                return false;
            }
            Long stored = this.converter.getStoredVersion(type, current.get().data());
            if (!Objects.equals(stored, expected)) {
                throw new OptimisticLockingFailureException("Cannot delete " + type.getName() + " " + id
                        + " with version " + expected + " from collection '" + collection + "': the stored version is "
                        + stored + "; it was modified meanwhile");
            }
            return store.delete(id);
        }));
        if (deleted) {
            this.events.publish(new AfterDeleteEvent<>(id, type, collection));
        }
        return deleted;
    }

    @SuppressWarnings("unchecked")
    private <T> Pending<T> prepare(T original) {
        Assert.notNull(original, "'entity' must not be null");
        Class<T> type = (Class<T>) original.getClass();
        StorhPersistentEntity<?> persistent = this.converter.getRequiredEntity(type);
        String collection = persistent.getCollection();
        T entity = this.events.beforeConvert(original, collection);
        this.events.publish(new BeforeConvertEvent<>(entity, type, collection, null));
        String id = this.converter.getId(entity);
        id = StringUtils.hasLength(id) ? StorhIds.check(id, collection) : null;
        Map<String, Object> data = this.converter.toData(entity);
        for (StorhPersistentProperty property : persistent) {
            if (property.isUniqueIndex() && data.get(property.getName()) == null) {
                data.remove(property.getName());
            }
        }
        StorhPersistentProperty versionProperty = persistent.getDocumentVersionProperty();
        Long expected = null;
        boolean isNew = true;
        if (versionProperty != null) {
            expected = this.converter.getVersion(entity);
            boolean primitive = versionProperty.getType().isPrimitive();
            isNew = (expected == null) || (primitive && expected == 0);
            long next = isNew ? (primitive ? 1 : 0) : expected + 1;
            data.put(versionProperty.getName(), next);
            if (!isNew && id == null) {
                throw new OptimisticLockingFailureException("Cannot save " + type.getName() + " with version "
                        + expected + " but no id to collection '" + collection + "'");
            }
        }
        return new Pending<>(entity, type, persistent, id, data, expected, isNew);
    }

    private <T> T saved(Pending<T> pending, StorageRecord stored) {
        T saved = this.converter.withStoredId(pending.entity(), stored);
        this.events.publish(new AfterSaveEvent<>(saved, pending.type(), pending.collection(), stored.data()));
        return saved;
    }

    /**
     * Every check of a batch, under the write lock, before anything is written: versions, ids
     * repeated where a version is checked, unique values within the batch, then against the store
     * with one query per unique property; when {@code putMany} checks them against the store itself
     * before it writes, only against the stored records the batch writes again.
     */
    private <T> void checkBatch(CollectionAccess store, List<Pending<T>> batch) {
        Map<String, Integer> versionedIds = new HashMap<>();
        boolean direct = store.putManyChecksUnique();
        List<StorageRecord> rewritten = new ArrayList<>(); // stored records the batch writes again
        Map<String, Map<Object, Integer>> uniqueValues = new LinkedHashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            Pending<T> pending = batch.get(i);
            if (pending.id() != null && pending.versioned()) {
                Integer earlier = versionedIds.putIfAbsent(pending.id(), i);
                if (earlier != null) {
                    throw new OptimisticLockingFailureException("Cannot save " + pending.type().getName() + " "
                            + pending.id() + " twice in one batch (entities " + earlier + " and " + i
                            + ") of collection '" + pending.collection() + "': its version is checked once per save");
                }
                Optional<StorageRecord> current = store.get(pending.id());
                checkVersion(pending, current);
                current.ifPresent(rewritten::add);
            }
            else if (pending.id() != null && direct) {
                store.get(pending.id()).ifPresent(rewritten::add);
            }
            for (StorhPersistentProperty property : pending.persistent()) {
                Object value = pending.data().get(property.getName());
                if (!property.isUniqueIndex() || value == null) {
                    continue;
                }
                Integer holder = uniqueValues.computeIfAbsent(property.getName(), (name) -> new LinkedHashMap<>())
                    .putIfAbsent(value, i);
                if (holder != null && (pending.id() == null || !pending.id().equals(batch.get(holder).id()))) {
                    throw new DuplicateKeyException("Unique index '" + property.getName() + "' of collection '"
                            + pending.collection() + "': entities " + holder + " and " + i + " of the batch both hold "
                            + value + "; nothing was written");
                }
            }
        }
        if (!direct) {
            uniqueValues.forEach((field, values) -> checkStoredUnique(store, batch, field,
                    values, store.query().where(field).in(values.keySet()).get()));
            return;
        }
        // putMany checks the values against the store before it writes anything, but lets a record
        // of the batch take a value another record of the batch gives up: refused here, as saving
        // the entities one at a time would refuse it
        if (!rewritten.isEmpty()) {
            uniqueValues.forEach((field, values) -> checkStoredUnique(store, batch, field, values, rewritten));
        }
    }

    /**
     * Fails when a stored record other than the entity holding a value in the batch holds it: the
     * entities of a batch holding one value share their id (checked before), so the first holder
     * in the batch stands for all.
     */
    private void checkStoredUnique(CollectionAccess store, List<? extends Pending<?>> batch, String field,
            Map<Object, Integer> values, List<StorageRecord> holders) {
        for (StorageRecord holder : holders) {
            Object held = holder.data().get(field);
            if (held == null) {
                continue;
            }
            Integer same = values.get(held);
            if (same != null && !(held instanceof Number)) {
                checkHolder(store, batch.get(same), field, held, holder);
                continue;
            }
            // numbers of different kinds may be identical without being equal: compare with each
            for (Map.Entry<Object, Integer> value : values.entrySet()) {
                if (Values.identical(held, value.getKey())) {
                    checkHolder(store, batch.get(value.getValue()), field, value.getKey(), holder);
                }
            }
        }
    }

    private static void checkHolder(CollectionAccess store, Pending<?> pending, String field, Object value,
            StorageRecord holder) {
        if (!holder.id().equals(pending.id())) {
            throw new DuplicateKeyException("Unique index '" + field + "' of collection '" + pending.collection()
                    + "' (" + store.collectionRoot() + "): value " + value + " is held by record " + holder.id()
                    + "; nothing of the batch was written");
        }
    }

    private void checkVersion(Pending<?> pending, Optional<StorageRecord> current) {
        if (!pending.versioned()) {
            return;
        }
        String what = pending.type().getName() + " " + pending.id();
        String where = " to collection '" + pending.collection() + "'";
        if (pending.isNew()) {
            if (current.isPresent()) {
                throw new OptimisticLockingFailureException("Cannot save new " + what + where
                        + ": a record with this id was stored meanwhile (version "
                        + this.converter.getStoredVersion(pending.type(), current.get().data()) + ")");
            }
            return;
        }
        if (current.isEmpty()) {
            throw new OptimisticLockingFailureException("Cannot save " + what + " with version " + pending.expected()
                    + where + ": the record was deleted meanwhile");
        }
        Long stored = this.converter.getStoredVersion(pending.type(), current.get().data());
        if (!Objects.equals(stored, pending.expected())) {
            throw new OptimisticLockingFailureException("Cannot save " + what + " with version " + pending.expected()
                    + where + ": the stored version is " + stored + "; it was modified meanwhile, reload it and retry");
        }
    }

}

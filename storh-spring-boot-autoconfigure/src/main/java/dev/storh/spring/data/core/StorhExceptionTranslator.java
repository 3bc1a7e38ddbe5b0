package dev.storh.spring.data.core;

import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import dev.storh.CorruptRecordException;
import dev.storh.LockTimeoutException;
import dev.storh.SchemaViolationException;
import dev.storh.StorageException;
import dev.storh.UniqueConstraintException;
import dev.storh.VersionConflictException;

import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DataRetrievalFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.dao.support.PersistenceExceptionTranslator;

/**
 * Turns storh failures into Spring's {@link DataAccessException} hierarchy, keeping the original
 * exception as the cause and its message (which names the path or id):
 * <ul>
 * <li>{@link CorruptRecordException} → {@link DataRetrievalFailureException};</li>
 * <li>{@link UniqueConstraintException} → {@link DuplicateKeyException};</li>
 * <li>{@link SchemaViolationException} → {@link DataIntegrityViolationException};</li>
 * <li>{@link LockTimeoutException} → {@link CannotAcquireLockException};</li>
 * <li>{@link VersionConflictException} (a compare-and-set write lost a race, e.g. on blob storage),
 * and any failure caused by one (a storage write that wraps the lost race) →
 * {@link OptimisticLockingFailureException};</li>
 * <li>any other {@link StorageException} and {@link UncheckedIOException} →
 * {@link DataAccessResourceFailureException}.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public class StorhExceptionTranslator implements PersistenceExceptionTranslator {

    /** The translations, tried in order: the subclasses of {@link StorageException} before it. */
    private static final List<Translation> TRANSLATIONS = List.of(
            new Translation(CorruptRecordException.class, DataRetrievalFailureException::new),
            new Translation(LockTimeoutException.class, CannotAcquireLockException::new),
            new Translation(VersionConflictException.class, OptimisticLockingFailureException::new),
            new Translation(UniqueConstraintException.class, DuplicateKeyException::new),
            new Translation(SchemaViolationException.class, DataIntegrityViolationException::new),
            new Translation(StorageException.class, DataAccessResourceFailureException::new),
            new Translation(UncheckedIOException.class, DataAccessResourceFailureException::new));

    /**
     * @param ex the failure
     * @return the translated exception; {@code ex} itself when it already is a
     * {@link DataAccessException}; {@code null} when it is not a storage failure
     */
    @Override
    public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
        if (ex instanceof DataAccessException dataAccessException) {
            return dataAccessException;
        }
        VersionConflictException conflict = conflictBehind(ex);
        if (conflict != null) {
            return new OptimisticLockingFailureException(ex.getMessage() + ": " + conflict.getMessage(), ex);
        }
        for (Translation translation : TRANSLATIONS) {
            if (translation.failure().isInstance(ex)) {
                return translation.translated().apply(ex.getMessage(), ex);
            }
        }
        return null;
    }

    /**
     * @param ex a failure
     * @return the version conflict that caused it (a storage failure wrapping a lost compare-and-set
     *     write), or null
     */
    private static VersionConflictException conflictBehind(RuntimeException ex) {
        for (Throwable cause = ex.getCause(); cause != null && cause != ex; cause = cause.getCause()) {
            if (cause instanceof VersionConflictException conflict) {
                return conflict;
            }
            if (cause.getCause() == cause) {
                return null;
            }
        }
        return null;
    }

    /**
     * @param ex the failure
     * @return the translated exception, or {@code ex} when it cannot be translated
     */
    RuntimeException translate(RuntimeException ex) {
        DataAccessException translated = translateExceptionIfPossible(ex);
        return (translated != null) ? translated : ex;
    }

    /**
     * Runs an action, translating what it throws.
     * @param <R> the result type
     * @param action the action
     * @return its result
     */
    <R> R translated(Supplier<R> action) {
        try {
            return action.get();
        }
        catch (RuntimeException ex) {
            throw translate(ex);
        }
    }

    /**
     * @param <T> the element type
     * @param source a lazy stream whose reads may fail
     * @return the same elements, failures translated while iterating; closing it closes the source
     */
    <T> Stream<T> translating(Stream<T> source) {
        Iterator<T> iterator = source.iterator();
        Iterator<T> translating = new Iterator<>() {

            @Override
            public boolean hasNext() {
                return translated(iterator::hasNext);
            }

            @Override
            public T next() {
                return translated(iterator::next);
            }

        };
        return StreamSupport
            .stream(Spliterators.spliteratorUnknownSize(translating, Spliterator.ORDERED | Spliterator.NONNULL), false)
            .onClose(source::close);
    }

    /**
     * @param failure the storh failure type
     * @param translated makes its Spring exception from the message and the cause
     */
    private record Translation(Class<? extends RuntimeException> failure,
            BiFunction<String, Throwable, DataAccessException> translated) {
    }

}

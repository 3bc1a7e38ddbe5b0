package dev.storh.query;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An iterator that finds its next element only when asked: {@link #hasNext()} calls
 * {@link #advance()} once and holds what it found until {@link #next()} hands it out. The engines'
 * record streams are built on it (files listed one by one, segment lines read one by one), so
 * elements that are skipped or fail are found lazily, on the consumer's thread.
 *
 * <p>Not thread-safe: one consumer.
 *
 * @param <T> the element type; elements are never {@code null}
 */
public abstract class LookaheadIterator<T> implements Iterator<T> {

    private T next;

    /** An iterator that has not looked ahead yet. */
    protected LookaheadIterator() {
    }

    /**
     * @return the next element, or {@code null} when there is none; once it has returned
     *     {@code null} it may be called again and must again return {@code null}
     */
    protected abstract T advance();

    @Override
    public final boolean hasNext() {
        if (next == null) {
            next = advance();
        }
        return next != null;
    }

    /**
     * @throws NoSuchElementException when {@link #hasNext()} is false
     */
    @Override
    public final T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        T found = next;
        next = null;
        return found;
    }

    /**
     * @param <T> the element type
     * @param elements an iterator of non-null elements
     * @return an ordered, sequential stream of its elements, read lazily
     */
    public static <T> Stream<T> stream(Iterator<T> elements) {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(elements, Spliterator.ORDERED | Spliterator.NONNULL),
                false);
    }
}

package dev.storh.queue;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A job's top-level payload as the state keeps it after an enqueue of this instance: at most
 * {@link #MAX_KEYS} keys and their values in two arrays, in the order given, looked up by a scan.
 * It costs one object and two arrays where a {@code LinkedHashMap} costs a table and an entry per
 * key, and it knows whether it holds a map or list, so a claim hands it out without looking at it.
 * Equal to, and with the hash code of, any map with the same mappings. Immutable (every mutator
 * throws {@link UnsupportedOperationException}), so safe to share between threads once built.
 */
final class PayloadMap extends AbstractMap<String, Object> {

    /** The most keys a payload map holds; a larger payload stays a {@code LinkedHashMap}. */
    static final int MAX_KEYS = 16;

    private final String[] keys;
    private final Object[] values;
    private final boolean flat;
    private Set<Entry<String, Object>> entries;

    /**
     * @param keys the keys, distinct, at most {@link #MAX_KEYS}; taken over, not copied
     * @param values their values, as many; taken over, not copied
     * @param flat whether no value is a map or list
     */
    PayloadMap(String[] keys, Object[] values, boolean flat) {
        this.keys = keys;
        this.values = values;
        this.flat = flat;
    }

    /** @return whether no value is a map or list */
    boolean flat() {
        return flat;
    }

    @Override
    public int size() {
        return keys.length;
    }

    @Override
    public boolean isEmpty() {
        return keys.length == 0;
    }

    private int indexOf(Object key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Object get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : values[i];
    }

    @Override
    public Object getOrDefault(Object key, Object defaultValue) {
        int i = indexOf(key);
        return i < 0 ? defaultValue : values[i];
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Object> action) {
        for (int i = 0; i < keys.length; i++) {
            action.accept(keys[i], values[i]);
        }
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        Set<Entry<String, Object>> set = entries;
        if (set == null) {
            set = new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, Object>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < keys.length;
                        }

                        @Override
                        public Entry<String, Object> next() {
                            if (next >= keys.length) {
                                throw new NoSuchElementException();
                            }
                            int i = next++;
                            return new SimpleImmutableEntry<>(keys[i], values[i]);
                        }
                    };
                }

                @Override
                public int size() {
                    return keys.length;
                }
            };
            entries = set;
        }
        return set;
    }

    @Override
    public int hashCode() {
        int h = 0;
        for (int i = 0; i < keys.length; i++) {
            h += keys[i].hashCode() ^ Objects.hashCode(values[i]);
        }
        return h;
    }
}

package dev.storh.mirror;

import dev.storh.StorageRecord;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** A {@link MirrorSource} made of an engine's operations (see {@link MirrorSource#of}). */
record EngineSource(BiFunction<Map<String, ?>, String, StorageRecord> putter, Function<String, Optional<StorageRecord>> getter,
        Predicate<String> deleter, Supplier<Stream<StorageRecord>> streamer, LongSupplier counter, String name) implements MirrorSource {

    @Override
    public StorageRecord put(Map<String, ?> data, String id) {
        return putter.apply(data, id);
    }

    @Override
    public Optional<StorageRecord> get(String id) {
        return getter.apply(id);
    }

    @Override
    public boolean delete(String id) {
        return deleter.test(id);
    }

    @Override
    public Stream<StorageRecord> stream() {
        return streamer.get();
    }

    @Override
    public long count() {
        return counter.getAsLong();
    }

    @Override
    public String toString() {
        return "MirrorSource[" + name + "]";
    }
}

package dev.storh.spring.boot.stores;

import dev.storh.doc.DocLayout;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.storh.StorageException;

/**
 * Record files per bucket of a DocStore collection: the 256 folders {@code data/00} to
 * {@code data/ff} (a record's bucket is characters 24–25 of its id), counted by listing or from
 * the store's cached id listing, without reading any file. A file
 * counts when its name ends with {@code .jsonc} and does not start with {@code .} (temp files);
 * a missing bucket counts 0.
 *
 * @param counts 256 counts, index = bucket number ({@code data/0a} is index 10)
 */
public record BucketSizes(int[] counts) {

    /** Buckets per collection. */
    public static final int BUCKETS = 256;

    /**
     * @param counts 256 counts
     */
    public BucketSizes {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("'counts' must have 256 entries, not " + counts.length);
        }
        counts = counts.clone();
    }

    /**
     * Lists the 256 bucket folders of a collection.
     * @param collectionRoot the collection folder ({@code <collections folder>/<name>})
     * @return the counts
     * @throws StorageException naming the bucket folder when one cannot be listed
     */
    public static BucketSizes of(Path collectionRoot) {
        DocLayout layout = DocLayout.of(collectionRoot);
        int[] counts = new int[BUCKETS];
        HexFormat hex = HexFormat.of();
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            Path folder = layout.bucketDir(hex.toHexDigits((byte) bucket));
            try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
                int n = 0;
                for (Path file : files) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".jsonc") && !name.startsWith(".")) {
                        n++;
                    }
                }
                counts[bucket] = n;
            }
            catch (NoSuchFileException | NotDirectoryException ex) {
                counts[bucket] = 0;
            }
            catch (IOException ex) {
                throw new StorageException("Could not list bucket folder " + folder, ex);
            }
        }
        return new BucketSizes(counts);
    }

    /**
     * Counts ids per bucket (characters 24–25 of a UUIDv7, in hex).
     * @param ids valid UUIDv7 ids, e.g. {@code DocStore.ids()}; the stream is consumed and closed
     * @return the counts
     */
    public static BucketSizes ofIds(java.util.stream.Stream<String> ids) {
        int[] counts = new int[BUCKETS];
        try (ids) {
            ids.forEach((id) -> counts[Character.digit(id.charAt(24), 16) * 16 + Character.digit(id.charAt(25), 16)]++);
        }
        return new BucketSizes(counts);
    }

    /**
     * @return a copy of the 256 counts
     */
    @Override
    public int[] counts() {
        return this.counts.clone();
    }

    /**
     * @param bucket 0 to 255
     * @return the files in that bucket
     */
    public int count(int bucket) {
        return this.counts[bucket];
    }

    /**
     * @return the sum of all counts: the collection's record files
     */
    public long total() {
        long total = 0;
        for (int count : this.counts) {
            total += count;
        }
        return total;
    }

    /**
     * @return the smallest bucket count
     */
    public int min() {
        return Arrays.stream(this.counts).min().orElse(0);
    }

    /**
     * @return the largest bucket count
     */
    public int max() {
        return Arrays.stream(this.counts).max().orElse(0);
    }

    /**
     * @return the mean bucket count, {@code total() / 256}
     */
    public double mean() {
        return total() / (double) BUCKETS;
    }

    /**
     * @return the counts by bucket name, {@code "00"} to {@code "ff"} in order
     */
    public Map<String, Integer> byBucket() {
        Map<String, Integer> map = new LinkedHashMap<>();
        HexFormat hex = HexFormat.of();
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            map.put(hex.toHexDigits((byte) bucket), this.counts[bucket]);
        }
        return map;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BucketSizes that && Arrays.equals(this.counts, that.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(this.counts);
    }

    @Override
    public String toString() {
        return "BucketSizes[total=" + total() + ", min=" + min() + ", max=" + max() + "]";
    }

}

package dev.storh.spring.data.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

import dev.storh.StorageRecord;
import dev.storh.query.Direction;
import dev.storh.query.FieldPath;
import dev.storh.query.QueryBuilder;
import dev.storh.query.Values;
import dev.storh.spring.data.core.RecordQueries.SortKey;
import dev.storh.spring.data.core.query.StorhCriteria;
import dev.storh.spring.data.core.query.StorhQuery;
import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;
import dev.storh.spring.transaction.CollectionAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.data.annotation.Id;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sorted pages read in the order of a range index ({@link RangeOrderedReads}, or core's walk of
 * the range index when there is no condition) or kept as the best offset + size of the matches
 * (a sort by a property without a range index) equal a sort of every match, on real files: random
 * entities with many ties, {@code null} names, updates and deletes, and random criteria (equality,
 * {@code in}, equality and range, none), sorts (one or two keys, either direction, by range-indexed
 * and unindexed properties), page sizes and offsets. Seeds: a fixed list, or
 * {@code -Dstorh.seed=<n>}.
 */
class RangeOrderedReadsTests {

    private static final List<String> NAMES = List.of("ash", "birch", "cedar", "elm", "fir", "hazel", "larch", "oak",
            "pine", "rowan", "willow", "yew");

    @TempDir
    Path root;

    /** Entities with an equality-indexed category, range-indexed name and rank, unindexed score. */
    @Document(collection = "listings")
    public record Listing(@Id String id, @Indexed String category, @Indexed(range = true) String name,
            @Indexed(range = true) Integer rank, Integer score) {

        public Listing with(String newName, String newCategory) {
            return new Listing(this.id, newCategory, newName, this.rank, this.score);
        }
    }

    private static long[] seeds() {
        String override = System.getProperty("storh.seed");
        return (override != null) ? new long[] { Long.parseLong(override) } : new long[] { 1, 7, 42, 2026 };
    }

    @Test
    void sortedPagesEqualASortOfEveryMatch() {
        for (long seed : seeds()) {
            try (StorhTemplate template = new StorhTemplate(this.root.resolve("seed-" + seed))) {
                Random random = new Random(seed);
                fill(template, random);
                for (int q = 0; q < 100; q++) {
                    checkRandomPage(template, random, "seed " + seed + " query " + q);
                }
            }
        }
    }

    @Test
    void aPageByCategorySortedByNameIsReadFromTheNameIndex() {
        try (StorhTemplate template = new StorhTemplate(this.root)) {
            List<Listing> saved = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                saved.add(new Listing(null, (i % 2 == 0) ? "even" : "odd", NAMES.get(i % NAMES.size()), i, i % 3));
            }
            saved = template.saveAll(saved);
            CollectionAccess store = CollectionAccess.of(template.docStore(Listing.class), template.collectionsFolder());
            QueryBuilder core = store.query().where("category").eq("even");
            List<StorageRecord> first = RangeOrderedReads.firstMatches(core, store,
                    List.of(new SortKey(FieldPath.of("name"), Direction.ASC)), 5);
            List<String> expected = saved.stream()
                .filter((l) -> l.category().equals("even"))
                .sorted(Comparator.comparing(Listing::name).thenComparing(Listing::id))
                .map(Listing::id)
                .toList();
            // "ash" is held by entities 0, 12, 24 and 36, "cedar" by 2, 14, 26, 38: the run of the 5th is read whole
            assertThat(first).as("answered from the range index").isNotNull()
                .extracting(StorageRecord::id).containsExactlyElementsOf(expected.subList(0, 8));

            // A name changed behind the view's back is never served from a stale position: the page stays right.
            Listing renamed = template.save(saved.get(0).with("zelkova", "even"));
            List<Listing> page = template.find(StorhQuery.where(StorhCriteria.where("category").is("even"))
                .with(PageRequest.of(0, 3, Sort.by("name"))), Listing.class);
            assertThat(page).extracting(Listing::id).containsExactlyElementsOf(expected.subList(1, 4));
            assertThat(template.find(StorhQuery.where(StorhCriteria.where("category").is("even"))
                .with(PageRequest.of(0, 1, Sort.by(Sort.Direction.DESC, "name"))), Listing.class))
                .containsExactly(renamed);
        }
    }

    /**
     * Ascending pages by category read on a freshly opened template each time, so that no range
     * view is in memory and the name index is read stride by stride: 1,200 entities over several
     * strides of 256 names, many ties, a rare category (its later pages need the whole index),
     * updates and deletes left in the delta. (A {@code null} name is kept in the range files after
     * every string: core then cannot prove their order and the view is walked, as in
     * {@link #sortedPagesEqualASortOfEveryMatch}.)
     */
    @Test
    void ascendingPagesReadThroughTheStridesEqualAFullSort() {
        for (long seed : seeds()) {
            Path folder = this.root.resolve("strides-" + seed);
            Random random = new Random(seed);
            try (StorhTemplate template = new StorhTemplate(folder)) {
                List<Listing> batch = new ArrayList<>();
                for (int i = 0; i < 1_200; i++) {
                    batch.add(stridedListing(random, null));
                }
                List<Listing> saved = template.saveAll(batch);
                for (int i = 0; i < 30; i++) {
                    template.save(stridedListing(random, saved.get(random.nextInt(saved.size())).id()));
                    template.deleteById(saved.get(random.nextInt(saved.size())).id(), Listing.class);
                }
            }
            for (int q = 0; q < 30; q++) {
                try (StorhTemplate template = new StorhTemplate(folder)) {
                    String category = "c" + random.nextInt(5);
                    String other = "c" + random.nextInt(5);
                    boolean in = random.nextBoolean();
                    StorhCriteria criteria = in ? StorhCriteria.where("category").in(List.of(category, other))
                            : StorhCriteria.where("category").is(category);
                    Predicate<Listing> filter = (l) -> l.category().equals(category) || in && l.category().equals(other);
                    Sort sort = random.nextBoolean() ? Sort.by("name") : Sort.by(Sort.Order.asc("name"), Sort.Order.desc("rank"));
                    PageRequest pageable = PageRequest.of(random.nextInt(12), 1 + random.nextInt(40), sort);
                    List<Listing> all;
                    try (var stream = template.findAll(Listing.class)) {
                        all = stream.filter(filter).sorted(comparator(sort)).toList();
                    }
                    List<Listing> expected = all.stream().skip(pageable.getOffset()).limit(pageable.getPageSize()).toList();
                    assertThat(template.find(StorhQuery.where(criteria).with(pageable), Listing.class))
                        .as("seed " + seed + " query " + q + ": " + criteria + " " + pageable)
                        .containsExactlyElementsOf(expected);
                }
            }
        }
    }

    private static Listing stridedListing(Random random, String id) {
        String category = (random.nextInt(25) == 0) ? "c4" : "c" + random.nextInt(4);
        Integer rank = (random.nextInt(12) == 0) ? null : random.nextInt(30);
        return new Listing(id, category, "n" + (100 + random.nextInt(700)), rank, random.nextInt(6));
    }

    private static void fill(StorhTemplate template, Random random) {
        List<Listing> batch = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            batch.add(randomListing(random, null));
        }
        List<Listing> saved = new ArrayList<>(template.saveAll(batch));
        for (int i = 0; i < 30; i++) {
            saved.add(template.save(randomListing(random, null)));
        }
        for (int i = 0; i < 40; i++) {
            Listing old = saved.get(random.nextInt(saved.size()));
            template.save(randomListing(random, old.id()));
        }
        for (int i = 0; i < 20; i++) {
            template.deleteById(saved.get(random.nextInt(saved.size())).id(), Listing.class);
        }
    }

    private static Listing randomListing(Random random, String id) {
        String name = (random.nextInt(10) == 0) ? null : NAMES.get(random.nextInt(NAMES.size()));
        Integer rank = (random.nextInt(12) == 0) ? null : random.nextInt(30);
        Integer score = (random.nextInt(8) == 0) ? null : random.nextInt(6);
        return new Listing(id, "c" + random.nextInt(4), name, rank, score);
    }

    private static void checkRandomPage(StorhTemplate template, Random random, String what) {
        String category = "c" + random.nextInt(4);
        String other = "c" + random.nextInt(4);
        int threshold = random.nextInt(30);
        StorhCriteria criteria;
        Predicate<Listing> filter;
        switch (random.nextInt(4)) {
            case 0 -> {
                criteria = StorhCriteria.where("category").is(category);
                filter = (l) -> l.category().equals(category);
            }
            case 1 -> {
                criteria = StorhCriteria.where("category").in(List.of(category, other));
                filter = (l) -> l.category().equals(category) || l.category().equals(other);
            }
            case 2 -> {
                criteria = StorhCriteria.all();
                filter = (l) -> true;
            }
            default -> {
                criteria = StorhCriteria.where("category").is(category).and("rank").greaterThan(threshold);
                // core's order puts null after every number: a null rank is greater
                filter = (l) -> l.category().equals(category) && Values.compare(l.rank(), threshold) > 0;
            }
        }
        Sort sort = switch (random.nextInt(7)) {
            case 0 -> Sort.by("name");
            case 1 -> Sort.by(Sort.Direction.DESC, "name");
            case 2 -> Sort.by(Sort.Order.asc("name"), Sort.Order.desc("rank"));
            case 3 -> Sort.by(Sort.Order.desc("rank"), Sort.Order.asc("name"));
            case 4 -> Sort.by("score");
            case 5 -> Sort.by(Sort.Direction.DESC, "score");
            default -> Sort.by(Sort.Order.desc("score"), Sort.Order.asc("name"));
        };
        PageRequest pageable = PageRequest.of(random.nextInt(5), 1 + random.nextInt(15), sort);
        List<Listing> all;
        try (var stream = template.findAll(Listing.class)) {
            all = stream.filter(filter).sorted(comparator(sort)).toList();
        }
        List<Listing> expected = all.stream().skip(pageable.getOffset()).limit(pageable.getPageSize()).toList();
        List<Listing> actual = template.find(StorhQuery.where(criteria).with(pageable), Listing.class);
        assertThat(actual).as(what + ": " + criteria + " " + pageable).containsExactlyElementsOf(expected);
    }

    /** Core's value order (null after strings and numbers), then ascending id. */
    private static Comparator<Listing> comparator(Sort sort) {
        Comparator<Listing> result = null;
        for (Sort.Order order : sort) {
            Comparator<Listing> next = switch (order.getProperty()) {
                case "name" -> (a, b) -> Values.compare(a.name(), b.name());
                case "rank" -> (a, b) -> Values.compare(a.rank(), b.rank());
                default -> (a, b) -> Values.compare(a.score(), b.score());
            };
            next = order.isAscending() ? next : next.reversed();
            result = (result == null) ? next : result.thenComparing(next);
        }
        return result.thenComparing(Listing::id);
    }

}

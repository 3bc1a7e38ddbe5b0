package dev.storh.bench.jmh.spring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.storh.StorageRecord;
import dev.storh.bench.jmh.StorhBenchmark;
import dev.storh.bench.spring.Product;
import dev.storh.bench.spring.ProductRepository;
import dev.storh.bench.spring.Products;
import dev.storh.doc.DocStore;
import dev.storh.fs.AtomicFiles;
import dev.storh.query.Direction;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;

/**
 * Sorted pages of 20 through the repository over {@code records} {@link Product}s with six
 * indexes ({@code name}, {@code price} and {@code stock} range-indexed, {@code category} and
 * {@code brand} equality-indexed, {@code sku} unique), pages 0 to 4 in turn: by an indexed
 * equality sorted by a range-indexed property ({@code findByCategory(c, pageable)}, with the
 * page's total), with no condition sorted by a range-indexed property either way
 * ({@code findAll(pageable)}), and sorted by a property without a range index (a bounded top-k
 * over every record), beside core's query for the first of them. Page-cache bound.
 * <p>
 * Building the collection takes minutes at 100,000 records, so it is kept between runs in
 * {@code <java.io.tmpdir>/storh-bench-pages-<records>} (with a {@code ready} marker once built;
 * delete the folder to rebuild it). Run with {@code -jvmArgsAppend -Djava.io.tmpdir=/dev/shm} to
 * keep it in memory.
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main SortedPageBenchmark \
 *     -jvmArgsAppend -Djava.io.tmpdir=/dev/shm
 * </pre>
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SortedPageBenchmark extends StorhBenchmark {

    /** Records in the collection. */
    @Param({ "100000" })
    public int records;

    private StorhTemplate template;

    private ProductRepository repository;

    private DocStore store;

    private Products products;

    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path folder = Path.of(System.getProperty("java.io.tmpdir"), "storh-bench-pages-" + records);
        Path ready = folder.resolve("ready");
        if (!Files.exists(ready)) {
            AtomicFiles.deleteTree(folder);
            build(folder);
            Files.createFile(ready);
        }
        template = new StorhTemplate(folder);
        repository = new StorhRepositoryFactory(template).getRepository(ProductRepository.class);
        store = template.docStore(Product.class);
        products = new Products(42, records);
    }

    private void build(Path folder) {
        try (StorhTemplate builder = new StorhTemplate(folder)) {
            Products made = new Products(42, records);
            DocStore raw = builder.docStore("products");
            for (int loaded = 0; loaded < records; loaded += 1_000) {
                List<Map<String, Object>> rows = new ArrayList<>();
                for (Product product : made.next(Math.min(1_000, records - loaded))) {
                    rows.add(builder.getConverter().toData(product));
                }
                raw.putMany(rows);
            }
            builder.docStore(Product.class); // declares the six indexes and builds them
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        template.close();
    }

    private PageRequest nextPage(Sort sort) {
        next++;
        return PageRequest.of(next % 5, 20, sort);
    }

    @Benchmark
    public Page<Product> pageByCategorySortedByName() {
        return repository.findByCategory(products.category(next / 5), nextPage(Sort.by("name")));
    }

    @Benchmark
    public List<StorageRecord> pageByCategorySortedByNameRawDocStore() {
        next++;
        long end = 20L * (next % 5 + 1);
        List<StorageRecord> head = store.query().where("category").eq(products.category(next / 5))
            .orderBy("name", Direction.ASC).limit(end).get();
        return head.subList((int) Math.min(head.size(), end - 20), head.size());
    }

    @Benchmark
    public Page<Product> pageSortedByName() {
        return repository.findAll(nextPage(Sort.by("name")));
    }

    @Benchmark
    public Page<Product> pageSortedByNameDescending() {
        return repository.findAll(nextPage(Sort.by(Sort.Direction.DESC, "name")));
    }

    @Benchmark
    public Page<Product> pageSortedByUnrangedProperty() {
        return repository.findAll(nextPage(Sort.by("sku")));
    }
}

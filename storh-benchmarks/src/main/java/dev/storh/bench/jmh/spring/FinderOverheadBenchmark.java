package dev.storh.bench.jmh.spring;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.storh.StorageRecord;
import dev.storh.bench.jmh.StorhBenchmark;
import dev.storh.doc.DocStore;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.data.mapping.Indexed;
import dev.storh.spring.data.repository.StorhRepository;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.data.annotation.Id;

/**
 * The cost of a derived, index-served repository finder over the same query on the raw
 * {@link DocStore}: 2,000 small records in 20 countries (100 each), {@code findByCountry} against
 * {@code query().where("country").eq(c).get()}, on real files in a temporary folder. The
 * repository adds the proxy, query derivation (cached), operand conversion and the Jackson
 * conversion of each of the 100 records to an entity. Page-cache bound.
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar org.openjdk.jmh.Main FinderOverheadBenchmark
 * </pre>
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FinderOverheadBenchmark extends StorhBenchmark {

    private static final int RECORDS = 2_000;

    private static final int COUNTRIES = 20;

    private CityRepository repository;

    private DocStore store;

    private int next;

    /** A small entity with an equality index on its country. */
    @Document(collection = "cities")
    public record City(@Id String id, String name, @Indexed String country, long population) {
    }

    /** The repository under test. */
    public interface CityRepository extends StorhRepository<City, String> {

        /**
         * @param country the country
         * @return its cities
         */
        List<City> findByCountry(String country);
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        createRoot("storh-bench");
        StorhTemplate template = onRoot(new StorhTemplate(root));
        repository = new StorhRepositoryFactory(template).getRepository(CityRepository.class);
        store = template.docStore(City.class);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("name", "city-" + i);
            data.put("country", country(i));
            data.put("population", 1_000L + i);
            rows.add(data);
        }
        store.putMany(rows);
    }

    private static String country(int i) {
        return "C" + (i % COUNTRIES);
    }

    private String nextCountry() {
        next = (next + 7) % COUNTRIES;
        return country(next);
    }

    @Benchmark
    public List<StorageRecord> findByCountryRawDocStore() {
        return store.query().where("country").eq(nextCountry()).get();
    }

    @Benchmark
    public List<City> findByCountryRepository() {
        return repository.findByCountry(nextCountry());
    }
}

package dev.storh.bench.jmh.spring;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.storh.bench.jmh.StorhBenchmark;
import dev.storh.StorageRecord;
import dev.storh.doc.DocStore;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.Document;
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
 * The cost of the Spring Data repository over the raw {@link DocStore} for
 * {@code findById} and {@code save} of one small record, on real files in a temporary folder.
 * Both sides use the same collection layout, no indexes and no events; the repository adds the
 * proxy, Jackson conversion between the entity and the JSON map, and id checks. {@code save}
 * replaces an existing record (fsync-bound), {@code findById} reads one of 1,000 records
 * (page-cache bound).
 *
 * <pre>
 * mvn -q -pl storh-benchmarks -am package -DskipTests
 * java -cp "storh-benchmarks/target/classes:$(cat storh-benchmarks/target/classpath.txt)" \
 *     org.openjdk.jmh.Main RepositoryOverheadBenchmark
 * </pre>
 * ({@code mvn -pl storh-benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt}
 * writes the class path.)
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RepositoryOverheadBenchmark extends StorhBenchmark {

    private static final int RECORDS = 1_000;

    private StorhTemplate template;
    private PlaceRepository repository;
    private DocStore store;
    private List<String> ids;
    private int next;

    /** A small entity: id plus three properties. */
    @Document(collection = "places")
    public record Place(@Id String id, String name, String country, long population) {
    }

    /** The repository under test. */
    public interface PlaceRepository extends StorhRepository<Place, String> {
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        createRoot("storh-bench");
        template = onRoot(new StorhTemplate(root));
        repository = new StorhRepositoryFactory(template).getRepository(PlaceRepository.class);
        store = template.docStore("places");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            rows.add(data("place-" + i));
        }
        ids = store.putMany(rows).stream().map(StorageRecord::id).toList();
    }

    /**
     * @param name the place's name
     * @return the JSON object of a place in country RO with 12,345 people
     */
    public static Map<String, Object> data(String name) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", name);
        data.put("country", "RO");
        data.put("population", 12_345L);
        return data;
    }

    private String nextId() {
        next = (next + 7919) % RECORDS;
        return ids.get(next);
    }

    @Benchmark
    public Optional<StorageRecord> findByIdRawDocStore() {
        return store.get(nextId());
    }

    @Benchmark
    public Optional<Place> findByIdRepository() {
        return repository.findById(nextId());
    }

    @Benchmark
    public StorageRecord saveRawDocStore() {
        return store.put(data("renamed"), nextId());
    }

    @Benchmark
    public Place saveRepository() {
        return repository.save(new Place(nextId(), "renamed", "RO", 12_345L));
    }
}

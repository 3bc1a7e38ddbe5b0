package dev.storh.bench.spring;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;

import dev.storh.StorageRecord;
import dev.storh.bench.jmh.spring.FinderOverheadBenchmark.City;
import dev.storh.bench.jmh.spring.FinderOverheadBenchmark.CityRepository;
import dev.storh.bench.jmh.spring.RepositoryOverheadBenchmark;
import dev.storh.bench.jmh.spring.RepositoryOverheadBenchmark.Place;
import dev.storh.bench.jmh.spring.RepositoryOverheadBenchmark.PlaceRepository;
import dev.storh.doc.DocStore;
import dev.storh.fs.AtomicFiles;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.repository.support.StorhRepositoryFactory;

/**
 * The repository's cost over the raw {@code DocStore} beneath it, in CPU time as well as wall
 * time: on a loaded machine a thread's CPU time per operation ({@link ThreadMXBean}) still says
 * what the operation costs, where wall time mostly says how long the thread waited for a core.
 * The same operations and data as {@code RepositoryOverheadBenchmark} ({@code findById} of one of
 * 1,000 small records, {@code save} replacing one) and {@code FinderOverheadBenchmark}
 * ({@code findByCountry}, 100 of 2,000 records through an equality index), in one JVM, raw and
 * repository blocks alternating; each figure is the median over the blocks, in microseconds per
 * operation. A save's CPU time leaves out its fsync waits; its wall time holds them.
 *
 * <pre>
 * java -cp storh-benchmarks/target/storh-benchmarks.jar dev.storh.bench.spring.SpringOverhead \
 *     [--blocks=9] [--dir=/tmp]
 * </pre>
 */
public final class SpringOverhead {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private SpringOverhead() {
    }

    /**
     * @param args {@code --blocks=<n>} (default 9), {@code --dir=<folder>} (default the temp folder)
     * @throws Exception when a run fails
     */
    public static void main(String[] args) throws Exception {
        int blocks = 9;
        Path parent = Path.of(System.getProperty("java.io.tmpdir"));
        for (String arg : args) {
            if (arg.startsWith("--blocks=")) {
                blocks = Integer.parseInt(arg.substring(9));
            }
            else if (arg.startsWith("--dir=")) {
                parent = Path.of(arg.substring(6));
            }
        }
        Path dir = Files.createTempDirectory(parent, "storh-spring-overhead-");
        StringBuilder out = new StringBuilder();
        out.append("| operation | raw CPU µs | repository CPU µs | ratio | raw wall µs | repository wall µs | ratio |\n")
            .append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        try (StorhTemplate template = new StorhTemplate(dir)) {
            PlaceRepository places = new StorhRepositoryFactory(template).getRepository(PlaceRepository.class);
            DocStore placeStore = template.docStore(Place.class);
            List<Map<String, Object>> rows = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                rows.add(RepositoryOverheadBenchmark.data("place-" + i));
            }
            List<String> ids = placeStore.putMany(rows).stream().map(StorageRecord::id).toList();
            IntConsumer rawGet = (i) -> placeStore.get(ids.get(i * 7_919 % ids.size()));
            IntConsumer repoGet = (i) -> places.findById(ids.get(i * 7_919 % ids.size()));
            row(out, "findById (1,000 records)", compare(blocks, 2_000, rawGet, repoGet));
            IntConsumer rawSave = (i) -> placeStore.put(RepositoryOverheadBenchmark.data("renamed"),
                    ids.get(i * 7_919 % ids.size()));
            IntConsumer repoSave = (i) -> places.save(new Place(ids.get(i * 7_919 % ids.size()), "renamed", "RO",
                    12_345L));
            row(out, "save, replacing (no index)", compare(blocks, 100, rawSave, repoSave));

            CityRepository cities = new StorhRepositoryFactory(template).getRepository(CityRepository.class);
            DocStore cityStore = template.docStore(City.class);
            List<Map<String, Object>> cityRows = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("name", "city-" + i);
                data.put("country", "C" + (i % 20));
                data.put("population", 1_000L + i);
                cityRows.add(data);
            }
            cityStore.putMany(cityRows);
            IntConsumer rawFinder = (i) -> cityStore.query().where("country").eq("C" + (i * 7 % 20)).get();
            IntConsumer repoFinder = (i) -> cities.findByCountry("C" + (i * 7 % 20));
            row(out, "findByCountry, 100 of 2,000 (equality index)", compare(blocks, 100, rawFinder, repoFinder));
        }
        finally {
            AtomicFiles.deleteTree(dir);
        }
        System.out.print(out);
    }

    /** @return raw CPU, repository CPU, raw wall, repository wall: medians in µs per operation */
    private static double[] compare(int blocks, int ops, IntConsumer raw, IntConsumer repository) {
        block(ops, raw); // warm-up
        block(ops, repository);
        block(ops, raw);
        block(ops, repository);
        double[][] samples = new double[4][blocks];
        for (int b = 0; b < blocks; b++) {
            double[] r = block(ops, raw);
            double[] s = block(ops, repository);
            samples[0][b] = r[0];
            samples[1][b] = s[0];
            samples[2][b] = r[1];
            samples[3][b] = s[1];
        }
        double[] medians = new double[4];
        for (int k = 0; k < 4; k++) {
            Arrays.sort(samples[k]);
            medians[k] = samples[k][blocks / 2];
        }
        return medians;
    }

    /** @return CPU and wall µs per operation of one block */
    private static double[] block(int ops, IntConsumer op) {
        long cpu = THREADS.getCurrentThreadCpuTime();
        long wall = System.nanoTime();
        for (int i = 0; i < ops; i++) {
            op.accept(i);
        }
        return new double[] { (THREADS.getCurrentThreadCpuTime() - cpu) / 1e3 / ops,
            (System.nanoTime() - wall) / 1e3 / ops };
    }

    private static void row(StringBuilder out, String name, double[] m) {
        out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |%n", name, m[0], m[1],
                m[1] / m[0], m[2], m[3], m[3] / m[2]));
    }

}

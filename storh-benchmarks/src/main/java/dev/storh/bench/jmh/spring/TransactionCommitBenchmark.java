package dev.storh.bench.jmh.spring;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import dev.storh.bench.jmh.StorhBenchmark;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.mapping.Document;
import dev.storh.spring.transaction.StorhTransactionManager;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.data.annotation.Id;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A {@code @Transactional}-style commit (through a {@link TransactionTemplate} over a
 * {@link StorhTransactionManager}) of {@code records} new small records, against the same saves
 * made one by one without a transaction. A commit writes and fsyncs its commit record, writes the
 * records as one batch (fsyncs in parallel, one fsync per bucket folder) and deletes the commit
 * record; each save outside a transaction is fsynced on its own. On real files in a temporary
 * folder.
 *
 * <pre>
 * mvn -q -pl storh-benchmarks -am package -DskipTests
 * java -cp "storh-benchmarks/target/classes:$(cat storh-benchmarks/target/classpath.txt)" \
 *     org.openjdk.jmh.Main TransactionCommitBenchmark
 * </pre>
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
public class TransactionCommitBenchmark extends StorhBenchmark {

    /** Records written per operation. */
    @Param({ "1", "100" })
    public int records;

    private StorhTemplate template;
    private TransactionTemplate transactions;

    /** A small entity: id plus three properties. */
    @Document(collection = "orders")
    public record Order(@Id String id, String customer, String item, long quantity) {
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        createRoot("storh-bench-txn");
        template = onRoot(new StorhTemplate(root));
        StorhTransactionManager manager = new StorhTransactionManager(template);
        manager.afterPropertiesSet();
        transactions = new TransactionTemplate(manager);
    }

    /** One transaction saving {@code records} records. */
    @Benchmark
    public void transactionalCommit() {
        transactions.executeWithoutResult(status -> saveAll());
    }

    /** The same saves without a transaction, each durable on its own. */
    @Benchmark
    public void savesWithoutTransaction() {
        saveAll();
    }

    private void saveAll() {
        for (int i = 0; i < records; i++) {
            template.save(new Order(null, "customer-" + i, "item", i));
        }
    }
}

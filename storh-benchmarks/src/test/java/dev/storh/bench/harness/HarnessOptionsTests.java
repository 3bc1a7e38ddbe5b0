package dev.storh.bench.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.storh.cache.CacheValidation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Argument parsing of the harness ({@code spec/bench.md} §1 options plus ours). */
class HarnessOptionsTests {

    @Test // spec/bench.md §1: N defaults to 1000, E to all, V to stat
    void noArgumentsGiveTheOriginalsDefaults() {
        HarnessOptions o = HarnessOptions.parse();
        assertThat(o.dataset()).isEqualTo(1000);
        assertThat(o.engine()).isEqualTo("all");
        assertThat(o.output()).isEqualTo(HarnessOptions.DEFAULT_OUTPUT);
        assertThat(o.cacheValidation()).isEqualTo(CacheValidation.STAT);
        assertThat(o.threads()).isEmpty();
        assertThat(o.data()).isNull();
        assertThat(o.repeat()).isEqualTo(1);
        assertThat(o.warmup()).isZero();
    }

    @Test // spec/bench.md §1: values < 1 become 1
    void datasetBelowOneBecomesOne() {
        assertThat(HarnessOptions.parse("--dataset=0").dataset()).isEqualTo(1);
        assertThat(HarnessOptions.parse("--dataset=-5").dataset()).isEqualTo(1);
    }

    @Test
    void everyOptionIsRead() {
        HarnessOptions o = HarnessOptions.parse("--dataset=50000", "--engine=LOG", "--output=out/r.json",
                "--cache-validation=hash", "--threads=4,1,16,4", "--data=cities.jsonl", "--repeat=5", "--warmup=2",
                "--dir=/var/tmp", "--table=out/t.txt");
        assertThat(o.dataset()).isEqualTo(50000);
        assertThat(o.engine()).isEqualTo("log");
        assertThat(o.output()).isEqualTo(Path.of("out/r.json"));
        assertThat(o.cacheValidation()).isEqualTo(CacheValidation.HASH);
        assertThat(o.threads()).containsExactly(4, 16);
        assertThat(o.data()).isEqualTo(Path.of("cities.jsonl"));
        assertThat(o.repeat()).isEqualTo(5);
        assertThat(o.warmup()).isEqualTo(2);
        assertThat(o.dir()).isEqualTo(Path.of("/var/tmp"));
        assertThat(o.table()).isEqualTo(Path.of("out/t.txt"));
        assertThat(o.sections()).containsExactly("log");
    }

    @Test // the JVM deserves a fair start: repeats warm up once unless told otherwise
    void repeatsWarmUpOnceByDefault() {
        assertThat(HarnessOptions.parse("--repeat=3").warmup()).isEqualTo(1);
        assertThat(HarnessOptions.parse("--repeat=3", "--warmup=0").warmup()).isZero();
    }

    @Test // spec/bench.md §1: the original's section order, then ours
    void allRunsEverySectionInTheOriginalsOrder() {
        assertThat(HarnessOptions.parse("--engine=all").sections())
                .containsExactly("doc", "log", "queue", "recovery", "cache", "uuid", "filter", "mirror", "sqlite", "fsync");
        assertThat(HarnessOptions.parse("--engine=mirror").sections()).containsExactly("mirror");
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> HarnessOptions.parse("--engine=docs")).hasMessageContaining("Unknown engine 'docs'");
        assertThatThrownBy(() -> HarnessOptions.parse("--dataset=ten")).hasMessageContaining("--dataset must be a whole number");
        assertThatThrownBy(() -> HarnessOptions.parse("--cache-validation=mtime")).hasMessageContaining("'mtime'");
        assertThatThrownBy(() -> HarnessOptions.parse("--threads=0")).hasMessageContaining("--threads must be at least 1");
        assertThatThrownBy(() -> HarnessOptions.parse("--repeat=0")).hasMessageContaining("--repeat must be at least 1");
        assertThatThrownBy(() -> HarnessOptions.parse("--speed=fast")).hasMessageContaining("Unknown option '--speed'");
        assertThatThrownBy(() -> HarnessOptions.parse("dataset=5")).hasMessageContaining("Expected --name=value");
        assertThatThrownBy(() -> HarnessOptions.parse("--output=")).hasMessageContaining("--output needs a value");
    }
}

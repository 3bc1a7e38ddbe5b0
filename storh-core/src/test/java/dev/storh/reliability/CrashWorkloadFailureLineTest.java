package dev.storh.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class CrashWorkloadFailureLineTest {

    @Test
    void aChildFailureIsOneLineNamingTheFailureItsCauseAndWhereItBroke() {
        StorageException failure = new StorageException("Could not write /r/docs/data/0a/x.jsonc\nsecond line",
                new IOException("No space left on device"));

        String line = CrashWorkload.describe(failure);

        assertThat(line).doesNotContain("\n")
                .startsWith("dev.storh.StorageException: Could not write /r/docs/data/0a/x.jsonc second line | at ")
                .contains(" | caused by java.io.IOException: No space left on device | at ")
                .contains("CrashWorkloadFailureLineTest.aChildFailureIsOneLineNamingTheFailureItsCauseAndWhereItBroke");
    }
}

package dev.storh.azure.blob.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.azure.blob.AzureBlobBackend;
import dev.storh.azure.blob.Azurite;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code storh.backend=azure-blob} against Azurite: the backend bean, its container and its health. */
class StorhAzureBlobAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAzureBlobAutoConfiguration.class));

    @Test
    void nothingWithoutTheBackendProperty() {
        runner.run(context -> assertThat(context).doesNotHaveBean(AzureBlobBackend.class));
    }

    @Test
    void aBackendOnTheContainerAndAHealthIndicatorThatChecksIt() {
        String container = "boot" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        runner.withPropertyValues("storh.backend=azure-blob", "storh.azure.blob.connection-string=" + Azurite.connectionString(),
                "storh.azure.blob.container=" + container, "storh.azure.blob.lease-duration=20s").run(context -> {
                    AzureBlobBackend backend = context.getBean(AzureBlobBackend.class);
                    assertThat(backend.containerName()).isEqualTo(container);
                    assertThat(backend.leaseDuration()).hasSeconds(20);
                    assertThat(backend.containerExists()).isTrue();
                    StorhAzureBlobHealthIndicator health = context.getBean(StorhAzureBlobHealthIndicator.class);
                    Health up = health.health(true);
                    assertThat(up.getStatus()).isEqualTo(Status.UP);
                    assertThat(up.getDetails()).containsEntry("container", container);
                    backend.container().delete();
                    Health down = health.health(true);
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(down.getDetails().toString()).contains(container);
                });
    }

    @Test
    void aMissingConnectionFailsStartupNamingTheProperty() {
        runner.withPropertyValues("storh.backend=azure-blob").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("storh.azure.blob.connection-string"));
    }
}

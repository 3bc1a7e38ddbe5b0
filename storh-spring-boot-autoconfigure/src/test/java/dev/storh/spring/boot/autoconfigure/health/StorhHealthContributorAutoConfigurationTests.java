package dev.storh.spring.boot.autoconfigure.health;

import java.nio.file.Path;

import dev.storh.spring.boot.actuate.StorhHealthIndicator;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.core.StorhTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class StorhHealthContributorAutoConfigurationTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(StorhAutoConfiguration.class, StorhHealthContributorAutoConfiguration.class));

    @Test
    void createsIndicatorNamedStorhOnTheCollectionsFolder() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "storh.namespace=app").run((context) -> {
            assertThat(context).hasSingleBean(StorhHealthIndicator.class).hasBean("storhHealthIndicator");
            Health health = context.getBean(StorhHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("root", this.root.resolve("app").toString());
        });
    }

    @Test
    void switchedOffByProperty() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root, "management.health.storh.enabled=false")
            .run((context) -> assertThat(context).hasSingleBean(StorhTemplate.class)
                .doesNotHaveBean(StorhHealthIndicator.class));
    }

    @Test
    void backsOffWithoutSpringBootHealth() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withClassLoader(new FilteredClassLoader(AbstractHealthIndicator.class))
            .run((context) -> assertThat(context).hasNotFailed()
                .hasSingleBean(StorhTemplate.class)
                .doesNotHaveBean("storhHealthIndicator"));
    }

    @Test
    void backsOffWithoutStorhOperations() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhHealthContributorAutoConfiguration.class))
            .run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("storhHealthIndicator"));
    }

    @Test
    void userIndicatorNamedStorhHealthIndicatorWins() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withBean("storhHealthIndicator", HealthIndicator.class, () -> () -> Health.outOfService().build())
            .run((context) -> {
                assertThat(context).doesNotHaveBean(StorhHealthIndicator.class);
                assertThat(context.getBean("storhHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.OUT_OF_SERVICE);
            });
    }

}

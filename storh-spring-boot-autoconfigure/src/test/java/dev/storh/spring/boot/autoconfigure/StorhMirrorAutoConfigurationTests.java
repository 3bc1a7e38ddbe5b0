package dev.storh.spring.boot.autoconfigure;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.storh.spring.boot.actuate.StorhMirrorHealthIndicator;
import dev.storh.spring.boot.mirror.StorhMirror;
import dev.storh.spring.boot.mirror.StorhMirrorScheduler;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.sample.cities.City;
import dev.storh.spring.sample.cities.CityRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StorhMirrorAutoConfiguration}: a mirror on the application's (SQLite) DataSource, typed
 * columns from the mapped entity, push on write, the periodic push, health and timers.
 */
class StorhMirrorAutoConfigurationTests {

    private static final long WAIT_MS = 10_000;

    @TempDir
    Path root;

    private ApplicationContextRunner contextRunner() {
        return new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, StorhAutoConfiguration.class,
                    StorhRepositoriesAutoConfiguration.class, StorhMirrorAutoConfiguration.class))
            .withBean(SimpleMeterRegistry.class)
            .withUserConfiguration(SqliteAndCities.class)
            .withPropertyValues("storh.root=" + this.root.resolve("files"), "test.db=" + this.root.resolve("mirror.db"));
    }

    @Test
    void noMirrorWithoutCollections() {
        contextRunner().run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(StorhMirror.class));
    }

    @Test
    void pushOnWriteFillsTypedColumnsFromTheEntity() throws Exception {
        contextRunner().withPropertyValues("storh.mirror.collections=cities", "storh.mirror.push-on-write=true",
                "storh.mirror.prefix=app_")
            .run((context) -> {
                assertThat(context).hasNotFailed().hasSingleBean(StorhMirror.class).doesNotHaveBean(StorhMirrorScheduler.class);
                CityRepository cities = context.getBean(CityRepository.class);
                City oslo = cities.save(City.of("Oslo", "NO", 709_000L, true));
                cities.save(City.of("Bergen", "NO", 285_000L, true));
                City cluj = cities.save(City.of("Cluj", "RO", 324_000L, false));
                DataSource ds = context.getBean(DataSource.class);
                assertThat(query(ds, "SELECT country, COUNT(*), SUM(population) FROM app_cities GROUP BY country ORDER BY country"))
                    .containsExactly(List.of("NO", 2, 994_000), List.of("RO", 1, 324_000));
                assertThat(query(ds, "SELECT coastal FROM app_cities WHERE id = '" + cluj.id() + "'")).containsExactly(List.of(0));
                cities.deleteById(oslo.id());
                assertThat(query(ds, "SELECT COUNT(*) FROM app_cities")).containsExactly(List.of(2));

                StorhMirror mirror = context.getBean(StorhMirror.class);
                assertThat(mirror.verify().ok()).isTrue();
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                assertThat(registry.get("storh.mirror.flush").tags("collection", "cities", "outcome", "success").timer().count())
                    .isEqualTo(4);

                Health health = context.getBean(StorhMirrorHealthIndicator.class).health(true);
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("inSync", true).doesNotContainKey("lastPush");
                mirror.push();
                assertThat(context.getBean(StorhMirrorHealthIndicator.class).health(true).getDetails()).containsKey("lastPush");
                assertThat(registry.get("storh.mirror.push").tags("collection", "all", "outcome", "success").timer().count())
                    .isEqualTo(1);
            });
    }

    @Test
    void intervalPushesWritesMadeOutsideRepositoriesAndHealthShowsAFailedPush() {
        contextRunner().withPropertyValues("storh.mirror.collections=cities,events", "storh.mirror.interval=100ms",
                "storh.logs.events.max-segment-bytes=1MB", "storh.mirror.health-verify-max-age=0s")
            .run((context) -> {
                assertThat(context).hasNotFailed().hasSingleBean(StorhMirrorScheduler.class);
                StorhStores stores = context.getBean(StorhStores.class);
                stores.docStore("cities").put(Map.of("name", "Turku", "country", "FI"));
                context.getBean("events", dev.storh.log.SegmentedLog.class).put(Map.of("type", "saved"));
                DataSource ds = context.getBean(DataSource.class);
                long deadline = System.currentTimeMillis() + WAIT_MS;
                while (System.currentTimeMillis() < deadline && !(count(ds, "storh_cities") == 1 && count(ds, "storh_events") == 1)) {
                    Thread.sleep(50);
                }
                assertThat(count(ds, "storh_cities")).isEqualTo(1);
                assertThat(count(ds, "storh_events")).isEqualTo(1);
                assertThat(query(ds, "SELECT name FROM storh_cities")).containsExactly(List.of("Turku"));

                try (Connection c = ds.getConnection()) {
                    c.createStatement().execute("DROP TABLE storh_events");
                }
                StorhMirror mirror = context.getBean(StorhMirror.class);
                deadline = System.currentTimeMillis() + WAIT_MS;
                while (System.currentTimeMillis() < deadline
                        && (mirror.lastPush() == null || mirror.lastPush().error() == null)) {
                    Thread.sleep(50);
                }
                Health health = context.getBean(StorhMirrorHealthIndicator.class).health(true);
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            });
    }

    private static long count(DataSource ds, String table) throws SQLException {
        return ((Number) query(ds, "SELECT COUNT(*) FROM " + table).get(0).get(0)).longValue();
    }

    private static List<List<Object>> query(DataSource ds, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhRepositories(basePackageClasses = CityRepository.class)
    static class SqliteAndCities {

        @Bean
        DataSource dataSource(org.springframework.core.env.Environment env) {
            SQLiteDataSource ds = new SQLiteDataSource();
            ds.setUrl("jdbc:sqlite:" + env.getProperty("test.db"));
            ds.setBusyTimeout(30_000);
            return ds;
        }

    }

}

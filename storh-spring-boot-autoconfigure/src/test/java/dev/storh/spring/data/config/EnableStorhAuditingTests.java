package dev.storh.spring.data.config;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.data.core.StorhTemplate;
import dev.storh.spring.data.core.event.AfterDeleteEvent;
import dev.storh.spring.data.core.event.AfterSaveEvent;
import dev.storh.spring.data.core.event.BeforeSaveEvent;
import dev.storh.spring.data.mapping.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.data.annotation.CreatedDate;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.LastModifiedDate;
import org.springframework.data.annotation.Version;
import org.springframework.data.auditing.DateTimeProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 7: auditing through {@link EnableStorhAuditing}, repository events as application events,
 * and the application's {@link JsonMapper} used for entities, in application contexts on real
 * files.
 */
class EnableStorhAuditingTests {

    @TempDir
    Path root;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class));

    @Test
    void createdAndLastModifiedDatesAreSetOnSave() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(AuditingConfig.class)
            .run((context) -> {
                StorhTemplate template = context.getBean(StorhTemplate.class);
                AtomicReference<Instant> now = context.getBean(Clock.class).now;
                now.set(Instant.parse("2025-01-01T10:00:00Z"));
                Memo memo = template.save(new Memo("first"));
                assertThat(memo.created).isEqualTo(Instant.parse("2025-01-01T10:00:00Z"));
                assertThat(memo.modified).isEqualTo(Instant.parse("2025-01-01T10:00:00Z"));

                now.set(Instant.parse("2025-01-02T12:30:00Z"));
                memo.text = "second";
                template.save(memo);
                Memo read = template.findById(memo.id, Memo.class).orElseThrow();
                assertThat(read.created).isEqualTo(Instant.parse("2025-01-01T10:00:00Z"));
                assertThat(read.modified).isEqualTo(Instant.parse("2025-01-02T12:30:00Z"));
                assertThat(read.version).isEqualTo(1L);
            });
    }

    @Test
    void withoutTheAnnotationNothingIsAudited() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root).run((context) -> {
            Memo memo = context.getBean(StorhTemplate.class).save(new Memo("plain"));
            assertThat(memo.created).isNull();
            assertThat(memo.modified).isNull();
        });
    }

    @Test
    void lifecycleEventsArePublishedForTheEntityTypeAndBeforeSaveMayChangeTheData() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withUserConfiguration(ListenerConfig.class)
            .run((context) -> {
                StorhTemplate template = context.getBean(StorhTemplate.class);
                Listener listener = context.getBean(Listener.class);
                Memo memo = template.save(new Memo("hello"));
                template.save(new Other(null, "not a memo"));
                Map<String, Object> stored = template.docStore("memo").get(memo.id).orElseThrow().data();
                assertThat(stored).containsEntry("stamp", "from-listener");
                template.deleteById(memo.id, Memo.class);
                assertThat(listener.seen).containsExactly("before-save hello", "after-save " + memo.id,
                        "after-delete " + memo.id);
            });
    }

    @Test
    void theApplicationsJsonMapperWritesTheEntities() {
        this.contextRunner.withPropertyValues("storh.root=" + this.root)
            .withBean(JsonMapper.class,
                    () -> JsonMapper.builder()
                        .changeDefaultPropertyInclusion((incl) -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
                        .build())
            .run((context) -> {
                StorhTemplate template = context.getBean(StorhTemplate.class);
                Memo memo = template.save(new Memo(null));
                // NON_NULL from the application's mapper: null properties are not written
                assertThat(template.docStore("memo").get(memo.id).orElseThrow().data()).containsOnlyKeys("version");
            });
    }

    @Document
    static class Memo {

        @Id
        public String id;

        @Version
        public Long version;

        public String text;

        @CreatedDate
        public Instant created;

        @LastModifiedDate
        public Instant modified;

        Memo() {
        }

        Memo(String text) {
            this.text = text;
        }

    }

    record Other(@Id String id, String text) {
    }

    static class Clock implements DateTimeProvider {

        final AtomicReference<Instant> now = new AtomicReference<>(Instant.EPOCH);

        @Override
        public Optional<TemporalAccessor> getNow() {
            return Optional.of(this.now.get());
        }

    }

    @Configuration(proxyBeanMethods = false)
    @EnableStorhAuditing(dateTimeProviderRef = "clock")
    static class AuditingConfig {

        @Bean
        Clock clock() {
            return new Clock();
        }

    }

    static class Listener {

        final List<String> seen = new ArrayList<>();

        @EventListener
        void beforeSave(BeforeSaveEvent<Memo> event) {
            event.getData().put("stamp", "from-listener");
            this.seen.add("before-save " + event.getEntity().text);
        }

        @EventListener
        void afterSave(AfterSaveEvent<Memo> event) {
            this.seen.add("after-save " + event.getEntity().id);
        }

        @EventListener
        void afterDelete(AfterDeleteEvent<Memo> event) {
            this.seen.add("after-delete " + event.getId());
        }

    }

    @Configuration(proxyBeanMethods = false)
    static class ListenerConfig {

        @Bean
        Listener listener() {
            return new Listener();
        }

    }

}

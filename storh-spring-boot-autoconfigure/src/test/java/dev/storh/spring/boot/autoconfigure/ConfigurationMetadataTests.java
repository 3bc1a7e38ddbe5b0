package dev.storh.spring.boot.autoconfigure;

import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata the build generates (annotation processor plus
 * {@code additional-spring-configuration-metadata.json}) describes every property an IDE should
 * complete, map values included, with enum hints in the lower case the docs use.
 */
class ConfigurationMetadataTests {

    @Test
    @SuppressWarnings("unchecked")
    void everyPropertyIncludingMapValuesHasADescription() throws Exception {
        Map<String, Object> metadata = read();
        Map<String, Map<String, Object>> properties = new HashMap<>();
        for (Map<String, Object> property : (List<Map<String, Object>>) metadata.get("properties")) {
            properties.put((String) property.get("name"), property);
        }
        for (String name : List.of("storh.root", "storh.namespace", "storh.cache.max-entries", "storh.cache.validation",
                "storh.collections.*.indexes[].field", "storh.collections.*.indexes[].unique",
                "storh.collections.*.indexes[].range", "storh.collections.*.index-layout",
                "storh.logs.*.max-segment-bytes", "storh.logs.*.retention",
                "storh.logs.*.partition", "storh.logs.*.sparse-index-interval", "storh.queues.*.processing-timeout",
                "storh.verify.cron", "storh.maintenance.retention-interval", "storh.maintenance.requeue-interval",
                "storh.maintenance.partition-check-interval")) {
            assertThat(properties).as(name).containsKey(name);
            assertThat((String) properties.get(name).get("description")).as(name + " description").isNotBlank();
        }
        for (java.lang.reflect.Field field : StorhQueueListenerProperties.class.getDeclaredFields()) {
            String name = "storh.queues.*.listener."
                    + field.getName().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
            assertThat(properties).as(name).containsKey(name);
            assertThat((String) properties.get(name).get("description")).as(name + " description").isNotBlank();
        }
        Map<String, List<String>> hints = new HashMap<>();
        for (Map<String, Object> hint : (List<Map<String, Object>>) metadata.get("hints")) {
            List<Map<String, Object>> values = (List<Map<String, Object>>) hint.get("values");
            if (values != null) {
                hints.put((String) hint.get("name"), values.stream().map((v) -> (String) v.get("value")).toList());
            }
        }
        assertThat(hints.get("storh.logs.*.partition")).containsExactly("none", "daily", "monthly");
        assertThat(hints.get("storh.cache.validation")).containsExactly("stat", "hash", "trust");
        assertThat(hints.get("storh.collections.*.cache.validation")).containsExactly("stat", "hash", "trust");
        assertThat(hints.get("storh.collections.*.index-layout")).containsExactly("original", "value-deltas");
    }

    @Test
    void theConfigurationProcessorIsNotOnTheRuntimeClasspath() {
        assertThat(getClass().getClassLoader()
            .getResource("org/springframework/boot/configurationprocessor/ConfigurationMetadataAnnotationProcessor.class"))
            .isNull();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> read() throws Exception {
        try (InputStream in = getClass().getClassLoader()
            .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated metadata").isNotNull();
            return JsonMapper.builder().build().readValue(in, Map.class);
        }
    }

}

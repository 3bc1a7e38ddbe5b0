package dev.storh.sample.cities;

import dev.storh.doc.DocStore;
import dev.storh.fs.AtomicFiles;
import dev.storh.spring.data.core.StorhTemplate;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import dev.storh.spring.boot.mirror.StorhMirror;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.io.Resource;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Imports the bundled GeoNames places on first start and reuses them on later starts.
 *
 * <p>A finished import leaves {@code <collection>/../cities.import-complete}; without it, any
 * records left by an interrupted import are removed and the import starts over, so the data set
 * is never half-loaded twice. The store comes from {@code template.docStore(City.class)}, which
 * declares the {@code country} and {@code name} indexes first, so the import keeps them current:
 * rows are written with {@code putStream} in batches of {@value #BATCH} under one lock hold each,
 * and each batch rewrites every touched index file once, with progress logged every
 * {@value #LOG_EVERY} places. Then, when the SQL mirror is configured ({@code storh.mirror.*}),
 * one push brings its table up to date with the files (inserting every place after the first
 * import, finding nothing to do on later starts).
 */
@Component
class CityImporter implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(CityImporter.class);
    private static final int BATCH = 25_000;
    private static final int LOG_EVERY = 50_000;

    private final StorhTemplate template;
    private final Resource source;
    private final boolean enabled;
    private final ObjectProvider<StorhMirror> mirror;
    private final JsonMapper json = JsonMapper.builder().build();

    CityImporter(StorhTemplate template, @Value("${cities.import.resource:classpath:cities.jsonl.gz}") Resource source,
            @Value("${cities.import.enabled:true}") boolean enabled, ObjectProvider<StorhMirror> mirror) {
        this.template = template;
        this.mirror = mirror;
        this.source = source;
        this.enabled = enabled;
    }

    @Override
    public void run(ApplicationArguments args) throws IOException {
        if (!enabled) {
            return;
        }
        DocStore store = template.docStore(City.class);
        Path done = store.collectionRoot().resolveSibling("cities.import-complete");
        if (Files.exists(done)) {
            log.info("Reusing {} places in {}", store.count(), store.collectionRoot());
            pushMirror();
            return;
        }
        long leftover = store.count();
        if (leftover > 0) {
            log.warn("Removing {} places left by an interrupted import in {}", leftover, store.collectionRoot());
            try (Stream<String> ids = store.ids()) {
                ids.forEach(store::delete);
            }
        }
        long started = System.nanoTime();
        long imported = importFrom(store);
        long ms = (System.nanoTime() - started) / 1_000_000;
        AtomicFiles.writeAtomic(done, ("{\"places\":" + imported + ",\"ms\":" + ms + "}\n").getBytes(StandardCharsets.UTF_8));
        log.info("Imported {} places into {} in {} ms ({} places/s)", imported, store.collectionRoot(), ms,
                ms == 0 ? imported : imported * 1000 / ms);
        pushMirror();
    }

    private void pushMirror() {
        mirror.ifAvailable(m -> {
            long started = System.nanoTime();
            log.info("SQL mirror push: {} in {} ms", m.push().toMap(), (System.nanoTime() - started) / 1_000_000);
        });
    }

    @SuppressWarnings("unchecked")
    private long importFrom(DocStore store) throws IOException {
        log.info("First start: importing places from {} into {}", source.getDescription(), store.collectionRoot());
        long count = 0;
        try (InputStream raw = source.getInputStream();
                InputStream in = source.getFilename() != null && source.getFilename().endsWith(".gz")
                        ? new GZIPInputStream(raw, 1 << 16) : raw;
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            List<Map<String, Object>> batch = new ArrayList<>(BATCH);
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                batch.add(json.readValue(line, Map.class));
                if (batch.size() == BATCH) {
                    count += store.putStream(batch);
                    batch.clear();
                    if (count % LOG_EVERY == 0) {
                        log.info("Imported {} places", count);
                    }
                }
            }
            count += store.putStream(batch);
        }
        return count;
    }
}

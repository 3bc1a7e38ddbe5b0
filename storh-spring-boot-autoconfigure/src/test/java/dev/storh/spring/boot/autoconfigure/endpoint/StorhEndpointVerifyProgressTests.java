package dev.storh.spring.boot.autoconfigure.endpoint;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.storh.doc.DocStore;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import dev.storh.spring.boot.actuate.StorhEndpoint;
import dev.storh.spring.boot.actuate.StorhEndpoint.CollectionDescriptor;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.stores.StoreType;
import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.StorhStores;
import dev.storh.spring.boot.stores.VerifyResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A running verify's progress in the {@code storh} endpoint: the verify is held on a record file
 * that is a named pipe (its read waits for a writer), so the endpoint is read while the verify
 * is surely running, with no timing involved.
 */
class StorhEndpointVerifyProgressTests {

    private static final int RECORDS = 300;

    @TempDir
    Path root;

    @Test
    void theEndpointShowsTheProgressOfAVerifyWhileItRuns() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/mkfifo")), "mkfifo(1) is not installed");
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StorhAutoConfiguration.class, StorhEndpointAutoConfiguration.class))
            .withPropertyValues("storh.root=" + this.root, "management.endpoints.web.exposure.include=storh")
            .run((context) -> {
                StorhStores stores = context.getBean(StorhStores.class);
                DocStore notes = stores.docStore("notes");
                for (int i = 0; i < RECORDS; i++) {
                    notes.put(Map.of("text", "note " + i));
                }
                String held = UuidV7.generate();
                Path fifo = notes.pathForId(held);
                Files.createDirectories(fifo.getParent());
                Process mkfifo = new ProcessBuilder("/usr/bin/mkfifo", fifo.toString()).inheritIO().start();
                assertThat(mkfifo.waitFor()).isZero();
                StorhStore store = stores.find(StoreType.COLLECTION, "notes").orElseThrow();
                StorhEndpoint endpoint = context.getBean(StorhEndpoint.class);
                assertThat(((CollectionDescriptor) endpoint.store("collections", "notes")).verifyProgress()).isNull();

                byte[] heldRecord = CanonicalJson.recordBytes(held, Map.of("text", "held"));
                // The pipe gets a valid record and closes: on a thread of its own, so that a failed
                // assertion below never leaves the test waiting on the pipe.
                Thread release = new Thread(() -> {
                    try (OutputStream out = Files.newOutputStream(fifo)) {
                        out.write(heldRecord);
                    }
                    catch (java.io.IOException ex) {
                        throw new java.io.UncheckedIOException(ex);
                    }
                }, "release-held-record");
                release.setDaemon(true);
                CompletableFuture<VerifyResult> verify = CompletableFuture.supplyAsync(store::verify);
                try {
                    for (int i = 0; i < 3000 && store.verifyProgress().isEmpty(); i++) {
                        Thread.sleep(10);
                    }
                    Map<String, Object> progress = ((CollectionDescriptor) endpoint.store("collections", "notes"))
                        .verifyProgress();
                    assertThat(progress).isNotNull()
                        .containsEntry("operation", "verify")
                        .containsEntry("total", (long) RECORDS + 1)
                        .containsEntry("finished", false);
                    assertThat((Long) progress.get("done")).isBetween(0L, (long) RECORDS);
                    assertThat(verify).isNotDone();
                }
                finally {
                    release.start();
                }
                VerifyResult result = verify.get(60, TimeUnit.SECONDS);
                assertThat(result.ok()).as(String.valueOf(result.errors())).isTrue();
                assertThat(store.verifyProgress()).isEmpty();
                CollectionDescriptor after = (CollectionDescriptor) endpoint.store("collections", "notes");
                assertThat(after.verifyProgress()).isNull();
                assertThat(after.lastVerify()).containsEntry("ok", true);
                Files.delete(fifo);
                assertThat(after.lastVerify()).containsEntry("bytes", notes.verify().stats().bytes() + heldRecord.length);
                assertThat(after.indexes()).isEmpty();
            });
    }

}

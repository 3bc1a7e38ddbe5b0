package dev.storh.spring.listener;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;

import dev.storh.StorageRecord;
import dev.storh.spring.boot.autoconfigure.StorhAutoConfiguration;
import dev.storh.spring.boot.autoconfigure.StorhListenerAutoConfiguration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A small Spring application run as a child JVM by {@link StorhListenerCrashTests}: a listener on
 * {@code jobs} that appends each job id to {@code --test.processed} (one {@code O_APPEND} write, so
 * it survives a kill) and takes {@code --test.work-ms} per job. Runs until killed or sent SIGTERM.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ StorhAutoConfiguration.class, StorhListenerAutoConfiguration.class })
public class ListenerChildApp {

    /** The listener. */
    static class Worker {

        private final Path processed;

        private final long workMs;

        Worker(Path processed, long workMs) {
            this.processed = processed;
            this.workMs = workMs;
        }

        @StorhListener(queue = "jobs", id = "crashy", concurrency = "4", batchSize = "5")
        void handle(StorageRecord job) throws IOException, InterruptedException {
            Thread.sleep(this.workMs);
            Files.write(this.processed, (job.id() + "\n").getBytes(StandardCharsets.US_ASCII), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        }

    }

    @Bean
    Worker worker(@Value("${test.processed}") Path processed, @Value("${test.work-ms:20}") long workMs) {
        return new Worker(processed, workMs);
    }

    /**
     * @param args Spring arguments: {@code --storh.root=...}, {@code --test.processed=...}
     * @throws InterruptedException never: blocks until the JVM ends
     */
    public static void main(String[] args) throws InterruptedException {
        new SpringApplicationBuilder(ListenerChildApp.class).web(WebApplicationType.NONE).run(args);
        System.out.println("READY");
        new CountDownLatch(1).await();
    }

}

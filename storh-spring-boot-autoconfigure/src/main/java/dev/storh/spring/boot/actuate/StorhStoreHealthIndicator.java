package dev.storh.spring.boot.actuate;

import java.nio.file.Path;
import java.util.List;

import dev.storh.spring.boot.stores.StorhStore;
import dev.storh.spring.boot.stores.VerifyResult;

import org.springframework.boot.health.contributor.Health;

/**
 * Health of one storh store (collection, log or queue): UP, or DOWN when its folder is not
 * writable, when a writer marker of a crashed writer is left in {@code .storh/writers/}
 * (a repair removes it), or when its last verify failed.
 * <p>
 * Details: {@code type}, {@code path} (absolute folder), {@code staleWriters} (absolute marker
 * paths), {@code lastVerify} ({@code at}, {@code ok}, {@code errors}, {@code durationMs},
 * {@code repaired}) once a verify ran, and {@code reasons}, one sentence per DOWN cause naming the
 * path or the errors. A DOWN status is logged at WARN with the reasons. Read-only: a call asks
 * the file system for permissions ({@link StorhStore#checkWritable()}) and lists the writer
 * markers; it writes nothing and reads no record.
 */
public class StorhStoreHealthIndicator extends ReasonedHealthIndicator<StorhStore> {

    /**
     * @param store the store to check
     * @throws IllegalArgumentException when {@code store} is null
     */
    public StorhStoreHealthIndicator(StorhStore store) {
        super("storh store health check failed", StorhStoreHealthIndicator.class, store, "store");
    }

    @Override
    String subject(StorhStore store) {
        return "storh " + store + " is";
    }

    @Override
    void check(StorhStore store, Health.Builder builder, List<String> reasons) {
        builder.withDetail("type", store.type().tag()).withDetail("path", store.path().toString());
        String notWritable = store.checkWritable();
        if (notWritable != null) {
            reasons.add(notWritable);
        }
        List<Path> stale = store.staleWriters();
        builder.withDetail("staleWriters", stale.stream().map(Path::toString).toList());
        if (!stale.isEmpty()) {
            reasons.add("Stale writer marker of a crashed writer: " + stale.get(0)
                    + ((stale.size() > 1) ? " (and " + (stale.size() - 1) + " more)" : "")
                    + "; a repair removes it and its orphan temp files");
        }
        VerifyResult last = store.lastVerify().orElse(null);
        if (last != null) {
            builder.withDetail("lastVerify", last.toMap());
            if (!last.ok()) {
                reasons.add("Last verify at " + last.at() + " failed: " + last.errors());
            }
        }
    }

}

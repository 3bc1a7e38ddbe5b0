package dev.storh.mirror;

import java.util.List;

/** Seeds for the randomised mirror tests: a fixed list, or the one given by {@code -Dstorh.seed=}. */
final class MirrorSeeds {

    private MirrorSeeds() {
    }

    static List<Long> seeds() {
        String override = System.getProperty("storh.seed");
        if (override != null && !override.isBlank()) {
            return List.of(Long.parseLong(override.trim()));
        }
        return List.of(7L, 1_337L, 20_261_201L);
    }
}

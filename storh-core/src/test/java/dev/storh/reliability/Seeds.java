package dev.storh.reliability;

import java.util.Arrays;
import java.util.List;

/** Seed list and run length of the reliability suite, from system properties. */
final class Seeds {

    private Seeds() {
    }

    /** @return whether the long versions run ({@code -Dstorh.reliability.long=true}) */
    static boolean longRun() {
        return Boolean.getBoolean("storh.reliability.long");
    }

    /**
     * @param defaults the fixed seeds of the short run
     * @return {@code -Dstorh.seed=N[,M...]} when given, otherwise the defaults
     */
    static List<Long> seeds(long... defaults) {
        String override = System.getProperty("storh.seed");
        if (override != null && !override.isBlank()) {
            return Arrays.stream(override.split(",")).map(String::trim).map(Long::parseLong).toList();
        }
        return Arrays.stream(defaults).boxed().toList();
    }

    /**
     * @param property the property naming the count
     * @param shortCount the count of the short run
     * @param longCount the count of the long run
     * @return the property's value when set, else the count for the run length
     */
    static int count(String property, int shortCount, int longCount) {
        return Integer.getInteger(property, longRun() ? longCount : shortCount);
    }
}

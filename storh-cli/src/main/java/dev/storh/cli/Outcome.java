package dev.storh.cli;

import java.util.Map;

/**
 * What a store command produced.
 *
 * @param report the JSON object to print, or {@code null} when the command wrote its data to
 *     standard output itself ({@code export -o -})
 * @param healthy whether the store showed no problem; {@code false} makes the exit code
 *     {@link StorhCli#EXIT_PROBLEMS}
 */
record Outcome(Map<String, Object> report, boolean healthy) {

    /**
     * @param report the JSON object to print
     * @return a healthy outcome
     */
    static Outcome ok(Map<String, Object> report) {
        return new Outcome(report, true);
    }
}

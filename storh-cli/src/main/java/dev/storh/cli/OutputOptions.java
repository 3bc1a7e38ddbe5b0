package dev.storh.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options every command shares: output format and progress bar. */
final class OutputOptions {

    @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
            description = "Output on stdout: json (stable, as the original; default) or table (for people).")
    Format format;

    @Option(names = "--progress", paramLabel = "auto|always|never", defaultValue = "auto",
            description = "Progress on stderr during long work: auto (a bar with counts, rate and time left when stderr"
                    + " is a terminal, else a plain line every 5 s; default), always (the bar) or never.")
    ProgressBar.Mode progress;

    /**
     * Prints a report in the chosen format and flushes.
     *
     * @param out standard output
     * @param report a JSON object in the core's JSON model
     */
    void print(PrintWriter out, Map<String, ?> report) {
        out.print(format == Format.table ? Table.keyValues(report) : CliJson.pretty(report));
        out.flush();
    }

    /**
     * Prints a listing: as JSON the whole report, as a table the given rows.
     *
     * @param out standard output
     * @param report a JSON object holding the list
     * @param headers table column titles
     * @param rows table cells
     */
    void printListing(PrintWriter out, Map<String, ?> report, List<String> headers, List<List<Object>> rows) {
        out.print(format == Format.table ? Table.columns(headers, rows) : CliJson.pretty(report));
        out.flush();
    }
}

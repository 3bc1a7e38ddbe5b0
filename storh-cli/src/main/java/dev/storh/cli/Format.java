package dev.storh.cli;

/** How a command prints its result on standard output. */
enum Format {
    /** The original's JSON, one value, stable keys and order: for scripts. */
    json,
    /** Aligned columns for people; not meant to be parsed. */
    table
}

/**
 * The {@code storh} command line: maintenance of a storage root by an operator (stats, verify,
 * repair, compact, reindex, import, export, ls), as an executable jar built with picocli.
 */
package dev.storh.cli;

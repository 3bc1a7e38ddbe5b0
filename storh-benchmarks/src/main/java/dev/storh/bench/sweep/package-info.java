/** The scale sweep of the document store: one Markdown table row per collection size. */
package dev.storh.bench.sweep;

/** DocStore secondary indexes: equality, unique, range and compound files, byte-compatible with the original ({@code spec/indexes-queries-schema.md} §1–§9). */
package dev.storh.doc.index;

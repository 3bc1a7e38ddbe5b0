/** DocStore secondary indexes: equality, unique, range and compound files, byte-compatible with the original. */
package dev.storh.doc.index;

/** DocStore: one JSONC file per record, sharded into 256 buckets by id ({@code spec/docstore.md} §4–§11). */
package dev.storh.doc;

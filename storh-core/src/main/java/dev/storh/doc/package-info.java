/** DocStore: one JSONC file per record, sharded into 256 buckets by id. */
package dev.storh.doc;

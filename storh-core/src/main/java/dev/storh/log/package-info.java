/** The append-only segmented log: checksummed segments, manifest, sparse and state indexes, compaction and retention. */
package dev.storh.log;

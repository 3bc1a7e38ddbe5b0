/** Queue: a durable job queue on one append-only, checksummed event log. */
package dev.storh.queue;

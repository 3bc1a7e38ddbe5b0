/** Queue: a durable job queue on one append-only, checksummed event log ({@code spec/log-queue.md} §3). */
package dev.storh.queue;

/**
 * The registry of every storh store of an application (collections, logs, queues), with the
 * maintenance operations that health, metrics, the {@code storh} endpoint and the scheduled
 * verify share.
 */
package dev.storh.spring.boot.stores;

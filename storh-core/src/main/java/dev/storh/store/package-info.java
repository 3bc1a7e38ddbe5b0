/**
 * The contract the three engines share: {@link dev.storh.store.Store} (a DocStore collection, a
 * segmented log or a job queue, seen the same way by the CLI, the Actuator endpoint, health, the
 * scheduled jobs and the SQL mirror), its report records ({@link dev.storh.store.VerifyReport},
 * {@link dev.storh.store.RepairReport}, {@link dev.storh.store.CompactReport}, each one shape with
 * the engine's own part as a field), the options base {@link dev.storh.store.StoreOptions} and the
 * name rules in {@link dev.storh.store.StoreNames}.
 */
package dev.storh.store;

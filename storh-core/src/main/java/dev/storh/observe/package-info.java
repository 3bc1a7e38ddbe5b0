/**
 * A hook for timing store operations and fsyncs without a metrics library in core:
 * {@link dev.storh.observe.StoreObserver}, set with {@code StoreOptions.Builder.observer(...)};
 * the Spring module binds it to Micrometer. Unset, it costs one reference comparison per
 * operation and nothing per fsync.
 */
package dev.storh.observe;

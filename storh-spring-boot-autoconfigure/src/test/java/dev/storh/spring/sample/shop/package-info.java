/**
 * A shop domain for scrolling, projections, batches and unique indexes: items with prices that
 * tie, nested makers, unique SKUs that may be unset, and versioned accounts.
 */
package dev.storh.spring.sample.shop;

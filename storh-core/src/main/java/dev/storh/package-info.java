/** Foundations shared by every storh engine: the storage root, records and storage exceptions. */
package dev.storh;

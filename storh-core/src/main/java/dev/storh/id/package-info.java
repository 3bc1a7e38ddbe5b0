/** UUIDv7 record ids: monotonic generation, validation, timestamps. */
package dev.storh.id;

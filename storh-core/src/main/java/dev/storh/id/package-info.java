/** UUIDv7 record ids: monotonic generation, validation, timestamps ({@code spec/docstore.md} §2). */
package dev.storh.id;

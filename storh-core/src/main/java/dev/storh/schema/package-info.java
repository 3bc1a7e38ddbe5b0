/** Optional collection schemas: field types, required fields, index flags ({@code spec/indexes-queries-schema.md} §13). */
package dev.storh.schema;

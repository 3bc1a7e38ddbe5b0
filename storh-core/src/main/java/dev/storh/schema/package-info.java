/** Optional collection schemas: field types, required fields, index flags. */
package dev.storh.schema;

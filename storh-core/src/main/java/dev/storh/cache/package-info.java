/** Record caches (Caffeine) and how cached records are validated against their files ({@code spec/docstore.md} §10). */
package dev.storh.cache;

/** Record caches (Caffeine) and how cached records are validated against their files. */
package dev.storh.cache;

/** Record filters: cursors, time ranges, equality, limits ({@code spec/docstore.md} §9.5). */
package dev.storh.query;

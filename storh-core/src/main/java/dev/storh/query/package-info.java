/** Record filters: cursors, time ranges, equality, limits. */
package dev.storh.query;

/**
 * Auto-configuration of the storh Micrometer meters.
 */
package dev.storh.spring.boot.autoconfigure.metrics;

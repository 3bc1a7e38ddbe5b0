/**
 * Auto-configuration of the storh dashboard page.
 */
package dev.storh.spring.boot.autoconfigure.dashboard;

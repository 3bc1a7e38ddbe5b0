/**
 * Auto-configuration of the storh health indicator.
 */
package dev.storh.spring.boot.autoconfigure.health;

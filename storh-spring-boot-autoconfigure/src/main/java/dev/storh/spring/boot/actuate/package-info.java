/**
 * Actuator support for storh: the health indicator.
 */
package dev.storh.spring.boot.actuate;

/**
 * Auto-configuration of the {@code storh} Actuator endpoint.
 */
package dev.storh.spring.boot.autoconfigure.endpoint;

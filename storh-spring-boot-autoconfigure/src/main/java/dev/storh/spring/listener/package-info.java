/**
 * Queue consumers the Spring way: {@link dev.storh.spring.listener.StorhListener @StorhListener}
 * methods, one {@link dev.storh.spring.listener.StorhListenerContainer} per method, all held by the
 * {@link dev.storh.spring.listener.StorhListenerEndpointRegistry} bean.
 */
package dev.storh.spring.listener;

/**
 * The storh template: entities in and out of {@code DocStore} collections, with Spring's data
 * access exceptions.
 */
package dev.storh.spring.data.core;

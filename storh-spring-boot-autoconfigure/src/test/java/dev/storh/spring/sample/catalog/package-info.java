/**
 * A catalog domain for path indexes: titles with a nested, indexed publisher name, indexed tags,
 * reviews whose ratings are indexed, a case-insensitive author index, a unique ISBN that may be
 * unset and a range-indexed year.
 */
package dev.storh.spring.sample.catalog;

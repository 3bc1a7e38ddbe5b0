/**
 * A bookshop domain for the query tests: nested objects, lists of values and lists of objects.
 */
package dev.storh.spring.sample.books;

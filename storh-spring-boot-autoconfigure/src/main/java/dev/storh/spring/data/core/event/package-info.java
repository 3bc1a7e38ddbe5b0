/**
 * Lifecycle events the template publishes as Spring application events (save, convert, delete)
 * and entity callbacks it invokes before conversion, including the auditing callback.
 */
package dev.storh.spring.data.core.event;

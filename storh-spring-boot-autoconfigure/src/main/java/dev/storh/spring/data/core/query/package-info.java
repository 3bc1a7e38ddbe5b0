/**
 * Queries the template evaluates against stored records: {@link dev.storh.spring.data.core.query.StorhQuery}
 * with {@link dev.storh.spring.data.core.query.StorhCriteria} conditions over the JSON model of each record.
 */
package dev.storh.spring.data.core.query;

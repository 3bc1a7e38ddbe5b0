/**
 * JSONC reading (comments, trailing commas), canonical JSON writing and the number model of stored
 * JSON ({@code docs/json-model.md}).
 */
package dev.storh.json;

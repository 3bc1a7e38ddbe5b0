/** JSONC reading (comments, trailing commas) and canonical JSON writing. */
package dev.storh.json;

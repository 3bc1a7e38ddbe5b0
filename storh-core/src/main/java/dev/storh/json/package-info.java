/** JSONC reading (comments, trailing commas) and canonical JSON writing ({@code spec/docstore.md} §3). */
package dev.storh.json;

package dev.storh.spring.sample.notes;

import dev.storh.spring.data.mapping.Document;

@Document
public record Note(String id, String text) {

}

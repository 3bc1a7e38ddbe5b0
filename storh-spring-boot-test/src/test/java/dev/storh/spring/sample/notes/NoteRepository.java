package dev.storh.spring.sample.notes;

import java.util.List;

import dev.storh.spring.data.repository.StorhRepository;

public interface NoteRepository extends StorhRepository<Note, String> {

    List<Note> findByText(String text);

}

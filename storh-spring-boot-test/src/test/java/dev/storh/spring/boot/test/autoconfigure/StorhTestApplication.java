package dev.storh.spring.boot.test.autoconfigure;

import dev.storh.spring.data.repository.config.EnableStorhRepositories;
import dev.storh.spring.sample.notes.NoteRepository;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application {@link StorhTestSliceTests} finds: note repositories and one component that
 * the slice leaves out.
 */
@SpringBootApplication
@EnableStorhRepositories(basePackageClasses = NoteRepository.class)
class StorhTestApplication {

}

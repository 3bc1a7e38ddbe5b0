package dev.storh.spring.data.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.storh.StorageException;
import dev.storh.UniqueConstraintException;
import dev.storh.VersionConflictException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.OptimisticLockingFailureException;

/** A lost compare-and-set race (blob storage's ETag check) is Spring's optimistic locking failure. */
class StorhExceptionTranslatorVersionConflictTests {

    private final StorhExceptionTranslator translator = new StorhExceptionTranslator();

    @Test
    void aVersionConflictIsAnOptimisticLockingFailureNamingTheFile() {
        VersionConflictException conflict = new VersionConflictException("data/2d/x.jsonc", "\"0x8D1\"");
        DataAccessException translated = this.translator.translateExceptionIfPossible(conflict);
        assertThat(translated).isInstanceOf(OptimisticLockingFailureException.class).hasCause(conflict)
            .hasMessageContaining("data/2d/x.jsonc")
            .hasMessageContaining("\"0x8D1\"");
    }

    @Test
    void aStorageFailureCausedByAVersionConflictIsAnOptimisticLockingFailureNamingBoth() {
        VersionConflictException conflict = new VersionConflictException("data/2d/x.jsonc", "\"0x8D1\"");
        StorageException wrapped = new StorageException("Could not atomically replace storage file: data/2d/x.jsonc",
            new IllegalStateException("rename failed", conflict));
        DataAccessException translated = this.translator.translateExceptionIfPossible(wrapped);
        assertThat(translated).isInstanceOf(OptimisticLockingFailureException.class).hasCause(wrapped)
            .hasMessageContaining("Could not atomically replace")
            .hasMessageContaining("\"0x8D1\"");
        assertThat(this.translator.translateExceptionIfPossible(new StorageException("disk full", new java.io.IOException("x"))))
            .isNotInstanceOf(OptimisticLockingFailureException.class);
    }

    @Test
    void aUniqueViolationStaysADuplicateKey() {
        assertThat(this.translator.translateExceptionIfPossible(new UniqueConstraintException("email", "a@b", "id1")))
            .isInstanceOf(DuplicateKeyException.class);
    }

}

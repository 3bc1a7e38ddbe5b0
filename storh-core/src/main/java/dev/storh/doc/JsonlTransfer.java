package dev.storh.doc;

import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.fs.AtomicFiles;
import dev.storh.json.CanonicalJson;
import dev.storh.progress.ProgressListener;
import dev.storh.progress.ProgressTracker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * JSONL import and export of one collection (see {@link DocStore#importJsonl(Path)} and
 * {@link DocStore#exportJsonl(Path)} for the shapes and errors): an import is one write session
 * under one lock hold, an export a snapshot written to a temp file beside the target, fsynced and
 * renamed over it. Thread-safe.
 */
final class JsonlTransfer {

    private final DocStore store;
    private final RecordPreparer preparer;
    private final Supplier<WriteSession> sessions;
    private final String writerPrefix;
    private final AtomicLong tempCounter = new AtomicLong();

    JsonlTransfer(DocStore store, RecordPreparer preparer, Supplier<WriteSession> sessions, String writerPrefix) {
        this.store = store;
        this.preparer = preparer;
        this.sessions = sessions;
        this.writerPrefix = writerPrefix;
    }

    long importJsonl(Path file, ProgressListener listener) {
        BufferedReader reader;
        CountingInputStream counted;
        long size;
        try {
            size = Files.size(file);
            counted = new CountingInputStream(Files.newInputStream(file));
            reader = new BufferedReader(new java.io.InputStreamReader(counted,
                    StandardCharsets.UTF_8.newDecoder()
                            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)));
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Could not open JSONL import file: " + file, e);
        }
        try (reader) {
            return store.withWriteLock(() -> {
                ProgressTracker progress = ProgressTracker.start("import", -1, size, listener);
                WriteSession session = sessions.get();
                long n = 0;
                long lineNo = 0;
                try {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lineNo++;
                        if (line.isBlank()) {
                            continue;
                        }
                        session.put(preparer.prepareItem(JsonlRows.importRow(line, file, lineNo)));
                        n++;
                        progress.advance(1, counted.take());
                    }
                } catch (IOException e) {
                    throw new StorageException("Could not read JSONL import file: " + file + " at line " + lineNo, e);
                } finally {
                    try {
                        session.finish();
                    } finally {
                        progress.advance(0, counted.take());
                        progress.finish();
                    }
                }
                return n;
            });
        } catch (IOException e) {
            throw new StorageException("Could not close JSONL import file: " + file, e);
        }
    }

    long exportJsonl(Path file, ProgressListener listener) {
        if (Files.isDirectory(file)) {
            throw new StorageException("Could not open JSONL export file: " + file + " is a directory");
        }
        Path target = file.toAbsolutePath();
        AtomicFiles.ensureDirectory(target.getParent());
        Path temp = DocLayout.exportTemp(target, writerPrefix, tempCounter.incrementAndGet());
        return store.withWriteLock(() -> {
            long n = 0;
            ProgressTracker progress = ProgressTracker.start("export", store::count, ProgressTracker.UNKNOWN_BYTES, listener);
            try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(temp,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), 1 << 20);
                    Stream<StorageRecord> records = store.stream()) {
                for (Iterator<StorageRecord> it = records.iterator(); it.hasNext(); ) {
                    StorageRecord r = it.next();
                    byte[] line = CanonicalJson.recordBytes(r.id(), r.data());
                    out.write(line);
                    n++;
                    progress.advance(1, line.length);
                }
            } catch (IOException | RuntimeException e) {
                AtomicFiles.deleteQuietly(temp);
                try {
                    progress.finish();
                } catch (RuntimeException listenerFailure) {
                    e.addSuppressed(listenerFailure);
                }
                if (e instanceof StorageException se) {
                    throw se;
                }
                throw new StorageException("Could not open JSONL export file: " + file, e);
            }
            try (var channel = java.nio.channels.FileChannel.open(temp, StandardOpenOption.WRITE)) {
                channel.force(true);
            } catch (IOException e) {
                AtomicFiles.deleteQuietly(temp);
                progress.finish();
                throw new StorageException("Could not sync JSONL export file: " + temp, e);
            }
            AtomicFiles.moveAtomic(temp, target);
            progress.finish();
            return n;
        });
    }
}

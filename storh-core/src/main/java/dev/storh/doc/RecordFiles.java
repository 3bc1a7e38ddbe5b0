package dev.storh.doc;

import dev.storh.CorruptRecordException;
import dev.storh.StorageException;
import dev.storh.StorageRecord;
import dev.storh.id.UuidV7;
import dev.storh.json.Jsonc;
import dev.storh.json.JsoncSyntaxException;
import dev.storh.fs.SafePaths;
import dev.storh.fs.StoreFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The record file format: one JSONC object
 * {@code {"id":"<uuidv7>","data":{...}}} per file, named {@code <id>.jsonc}. Writers always emit the
 * canonical compact form ({@code CanonicalJson.recordBytes}); readers accept any JSONC object.
 *
 * <p>Reading validates, in order: the file is readable; it is a JSONC object; {@code id} (a
 * string, else empty) is a valid UUIDv7; the id equals the file name without {@code .jsonc}, byte
 * for byte. {@code data} is the {@code data} member when it is an object or array, else empty.
 */
final class RecordFiles {

    static final String EXTENSION = DocLayout.RECORD_EXTENSION;

    private RecordFiles() {
    }

    /**
     * @param files the collection's byte seam
     * @param file the record file
     * @return the record, or {@code null} when the file does not exist
     * @throws StorageException {@code "Could not read storage file: <path>"} on an I/O error
     * @throws CorruptRecordException when the content fails validation, or the file is a
     *     symbolic link (never followed)
     */
    static StorageRecord readOrNull(StoreFiles files, Path file) {
        byte[] bytes = readBytesOrNull(files, file);
        return bytes == null ? null : decode(file, bytes);
    }

    /**
     * Reads a record file through the seam, which does not follow a symbolic link in its last
     * component (a link there could point outside the collection).
     *
     * @param files the collection's byte seam
     * @param file the record file
     * @return its bytes, or {@code null} when it does not exist
     * @throws CorruptRecordException naming the path when it is a symbolic link
     * @throws StorageException {@code "Could not read storage file: <path>"} on another I/O error
     */
    static byte[] readBytesOrNull(StoreFiles files, Path file) {
        return readBytesOrNull(files, files.nameOf(file), file);
    }

    /**
     * {@link #readBytesOrNull(StoreFiles, Path)} when the caller has the seam's name already.
     *
     * @param files the collection's byte seam
     * @param name the record file's name on the seam
     * @param file the same file as a path (for messages)
     * @return its bytes, or {@code null} when it does not exist
     */
    static byte[] readBytesOrNull(StoreFiles files, String name, Path file) {
        return readBytesOrNull(files, name, file, -1);
    }

    /**
     * {@link #readBytesOrNull(StoreFiles, String, Path)} of a file whose size a look just before
     * told: the seam may read it in fewer calls ({@link StoreFiles#readAll(String, long)}), so bytes
     * that fail to decode are read again the plain way before they count as corrupt.
     *
     * @param files the collection's byte seam
     * @param name the record file's name on the seam
     * @param file the same file as a path (for messages)
     * @param sizeSeen its size at that look, or -1 when unknown
     * @return its bytes, or {@code null} when it does not exist
     */
    static byte[] readBytesOrNull(StoreFiles files, String name, Path file, long sizeSeen) {
        try {
            if (sizeSeen >= 0) {
                return files.readAll(name, sizeSeen);
            }
            try (InputStream in = files.open(name)) {
                return in.readAllBytes();
            }
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            if (isLink(files, name)) {
                throw new CorruptRecordException(SafePaths.linkRefused(file).getMessage(), file, e);
            }
            throw new StorageException("Could not read storage file: " + file, e);
        }
    }

    private static boolean isLink(StoreFiles files, String name) {
        try {
            return files.stat(name).map(e -> e.kind() == StoreFiles.Entry.Kind.OTHER).orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param file where the bytes came from (its name is the expected id)
     * @param bytes the file content
     * @return the validated record
     * @throws CorruptRecordException when the content fails validation
     */
    static StorageRecord decode(Path file, byte[] bytes) {
        Map<String, Object> envelope;
        try {
            envelope = Jsonc.decodeObject(bytes);
        } catch (JsoncSyntaxException e) {
            throw new CorruptRecordException("Invalid JSONC storage file: " + file + " (" + e.getMessage() + ")", file, e);
        } catch (StorageException e) {
            throw new CorruptRecordException(e.getMessage() + " Storage file: " + file, file, e);
        }
        Object idValue = envelope.get("id");
        String id = idValue instanceof String s ? s : "";
        if (!UuidV7.isValid(id)) {
            throw new CorruptRecordException("Invalid UUIDv7 value. Storage file: " + file, file, null);
        }
        String name = file.getFileName().toString();
        if (!name.equals(id + EXTENSION)) {
            throw new CorruptRecordException("Storage record id does not match its path: id " + id + ", file " + file,
                    file, null);
        }
        return new StorageRecord(id, dataOf(envelope.get("data")));
    }

    /** The data member as the original sees it: objects as-is, lists keyed "0".."n-1", else empty. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> dataOf(Object data) {
        if (data instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        Map<String, Object> result = new LinkedHashMap<>();
        if (data instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                result.put(Integer.toString(i), list.get(i));
            }
        }
        return result;
    }
}

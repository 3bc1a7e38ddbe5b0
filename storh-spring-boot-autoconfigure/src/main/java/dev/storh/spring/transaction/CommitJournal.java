package dev.storh.spring.transaction;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import dev.storh.StorageException;
import dev.storh.fs.AtomicFiles;
import dev.storh.fs.LocalFiles;
import dev.storh.fs.MetaLayout;
import dev.storh.fs.StoreFiles;
import dev.storh.id.UuidV7;
import dev.storh.json.CanonicalJson;
import dev.storh.json.Jsonc;

/**
 * The commit records of one storh root, in {@code <root>/.storh/transactions/}: one file
 * {@code <transaction id>.commit} per committed transaction whose writes are not all applied yet
 * (the format is described in {@code docs/transactions.md}). A commit record is written to
 * {@code .<transaction id>.tmp}, fsynced, renamed into place and the folder fsynced before the
 * first record file of the transaction is touched; it is deleted (and the folder fsynced) once
 * every write is applied. So after a crash a {@code .commit} file is a transaction to roll
 * forward, and a {@code .tmp} file one that never committed.
 * <p>
 * Thread-safe: each commit record has its own file; callers hold the write locks of the
 * collections a record names.
 */
final class CommitJournal {

    static final String FOLDER = MetaLayout.TRANSACTIONS;

    static final String SUFFIX = ".commit";

    private static final int FORMAT = 1;

    private final Path folder;

    private final StoreFiles files;

    private volatile boolean folderReady;

    CommitJournal(Path root) {
        this.folder = root.resolve(FOLDER);
        this.files = LocalFiles.at(this.folder);
    }

    Path folder() {
        return this.folder;
    }

    /**
     * Writes the commit record of a transaction durably.
     * @param transactionId the transaction id
     * @param writes its writes
     * @return the record's file name
     * @throws StorageException naming the file when it cannot be written (nothing is left behind)
     */
    String write(String transactionId, List<BufferedWrite> writes) {
        if (!this.folderReady) {
            AtomicFiles.ensureDirectory(this.folder);
            this.folderReady = true;
        }
        String name = transactionId + SUFFIX;
        AtomicFiles.writeVia(this.files, "." + transactionId + ".tmp", name, encode(transactionId, writes));
        return name;
    }

    /**
     * Deletes an applied commit record and fsyncs the folder, so it is never applied again.
     * @param name the record's file name
     */
    void remove(String name) {
        try {
            AtomicFiles.deleteDurably(this.files, name);
        }
        catch (IOException ex) {
            throw new StorageException("Could not delete applied transaction commit record: " + this.folder.resolve(name),
                    ex);
        }
    }

    /**
     * @param name a commit record's file name
     * @return whether the record is still there (not yet applied and removed)
     */
    boolean contains(String name) {
        try {
            return this.files.exists(name);
        }
        catch (IOException ex) {
            throw new StorageException("Could not read transaction commit record: " + this.folder.resolve(name), ex);
        }
    }

    /**
     * Lists the commit records left by a crash, oldest transaction first, and removes the temp
     * files of transactions that never committed.
     * @return each record's file name and writes
     * @throws StorageException naming a commit record that cannot be read or is damaged
     */
    List<Pending> pending() {
        if (!java.nio.file.Files.isDirectory(this.folder)) {
            return List.of();
        }
        List<String> names;
        try {
            names = new ArrayList<>(this.files.list(""));
        }
        catch (IOException ex) {
            throw new StorageException("Could not list transaction commit records: " + this.folder, ex);
        }
        names.sort(null);
        List<Pending> result = new ArrayList<>();
        for (String name : names) {
            if (name.startsWith(".") && name.endsWith(".tmp")) {
                AtomicFiles.deleteQuietly(this.files, name);
            }
            else if (name.endsWith(SUFFIX)) {
                result.add(new Pending(name, read(name)));
            }
        }
        return result;
    }

    /** A commit record found on disk: its file name and writes. */
    record Pending(String name, List<BufferedWrite> writes) {
    }

    static byte[] encode(String transactionId, List<BufferedWrite> writes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + writes.size() * 128);
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("storh", "transaction");
        header.put("format", FORMAT);
        header.put("id", transactionId);
        header.put("writes", writes.size());
        out.writeBytes(CanonicalJson.encodeCompact(header));
        for (BufferedWrite write : writes) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("collection", write.collection());
            line.put("op", write.isDelete() ? "delete" : "put");
            line.put("id", write.id());
            if (!write.isDelete()) {
                line.put("data", write.data());
            }
            out.writeBytes(CanonicalJson.encodeCompact(line));
        }
        CRC32 crc = new CRC32();
        crc.update(out.toByteArray());
        Map<String, Object> trailer = new LinkedHashMap<>();
        trailer.put("commit", transactionId);
        trailer.put("writes", writes.size());
        trailer.put("crc32", String.format("%08x", crc.getValue()));
        out.writeBytes(CanonicalJson.encodeCompact(trailer));
        return out.toByteArray();
    }

    private List<BufferedWrite> read(String name) {
        byte[] bytes;
        try (InputStream in = this.files.open(name)) {
            bytes = in.readAllBytes();
        }
        catch (IOException ex) {
            throw new StorageException("Could not read transaction commit record: " + this.folder.resolve(name), ex);
        }
        try {
            return decode(name.substring(0, name.length() - SUFFIX.length()), bytes);
        }
        catch (RuntimeException ex) {
            throw new StorageException("Damaged transaction commit record: " + this.folder.resolve(name) + " ("
                    + ex.getMessage() + "); it cannot be rolled forward, inspect it and move it away to start", ex);
        }
    }

    @SuppressWarnings("unchecked")
    static List<BufferedWrite> decode(String transactionId, byte[] bytes) {
        List<byte[]> lines = lines(bytes);
        if (lines.size() < 2) {
            throw new IllegalArgumentException("no header and trailer");
        }
        Map<String, Object> header = Jsonc.decodeObject(lines.get(0));
        if (!"transaction".equals(header.get("storh")) || !transactionId.equals(header.get("id"))) {
            throw new IllegalArgumentException("header is not this transaction's");
        }
        if (!(header.get("format") instanceof Number format) || format.intValue() != FORMAT) {
            throw new IllegalArgumentException("unknown format " + header.get("format"));
        }
        Map<String, Object> trailer = Jsonc.decodeObject(lines.get(lines.size() - 1));
        int bodyLength = bytes.length - lines.get(lines.size() - 1).length - 1;
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bodyLength);
        if (!transactionId.equals(trailer.get("commit"))
                || !String.format("%08x", crc.getValue()).equals(trailer.get("crc32"))) {
            throw new IllegalArgumentException("trailer missing or checksum mismatch");
        }
        List<BufferedWrite> writes = new ArrayList<>(lines.size() - 2);
        for (byte[] line : lines.subList(1, lines.size() - 1)) {
            Map<String, Object> op = Jsonc.decodeObject(line);
            String collection = (String) op.get("collection");
            String id = UuidV7.normalize((String) op.get("id"));
            Object kind = op.get("op");
            if ("put".equals(kind) && op.get("data") instanceof Map<?, ?> data) {
                writes.add(new BufferedWrite(collection, id, (Map<String, Object>) data));
            }
            else if ("delete".equals(kind)) {
                writes.add(new BufferedWrite(collection, id, null));
            }
            else {
                throw new IllegalArgumentException("unknown write " + new String(line, StandardCharsets.UTF_8));
            }
        }
        if (!(header.get("writes") instanceof Number count) || count.intValue() != writes.size()) {
            throw new IllegalArgumentException("write count differs from the header");
        }
        return writes;
    }

    private static List<byte[]> lines(byte[] bytes) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                lines.add(java.util.Arrays.copyOfRange(bytes, start, i));
                start = i + 1;
            }
        }
        if (start != bytes.length) {
            throw new IllegalArgumentException("last line is not terminated");
        }
        return lines;
    }

}

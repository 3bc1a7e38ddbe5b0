package dev.storh.cli;

import dev.storh.doc.DocStore;
import dev.storh.log.SegmentedLog;
import dev.storh.mirror.MirrorVerifyReport;
import dev.storh.mirror.SqlMirror;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code storh mirror <install|push|pull|verify|rebuild> <root> [collection] --jdbc-url=URL}: the SQL
 * mirror of a root's document collections and segmented logs (see {@code docs/mirror.md}).
 * Without a collection every document collection and log under the root is mirrored (queues and
 * partitioned logs are left out). Tables hold {@code id}, {@code hash} and {@code data} (no typed
 * columns: the command line knows no schema), so push and rebuild belong on tables the command
 * line created; verify and pull work on any mirror table.
 *
 * <p>Output: {@code install} {@code {"tables":{collection: table}}}; {@code push} and
 * {@code rebuild} {@code {inserted, updated, deleted, unchanged}}; {@code pull}
 * {@code {written, unchanged}}; {@code verify} {@code {ok, errors, stats}}. Exit 1 when verify finds
 * drift or the database refuses a statement.
 */
@Command(name = "mirror", mixinStandardHelpOptions = true,
        description = {"Mirror document collections and logs into SQL tables (SQLite, MySQL/MariaDB, PostgreSQL).",
            "install: create the tables; push: reconcile tables with the files by row hash;",
            "pull: write table rows back into the stores; verify: report missing, stale and orphaned rows;",
            "rebuild: empty the tables and push everything again.",
            "Exit 0 when done (verify: no drift), 1 on drift or a database error."})
final class MirrorCommand implements Callable<Integer> {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]+");

    /** The mirror operations. */
    enum Action { install, push, pull, verify, rebuild }

    @Parameters(index = "0", paramLabel = "<action>", description = "install, push, pull, verify or rebuild.")
    Action action;

    @Parameters(index = "1", paramLabel = "<root>",
            description = "Storage root: the folder holding the collections and logs.")
    String root;

    @Parameters(index = "2", arity = "0..1", paramLabel = "<collection>",
            description = "One document collection or log (default: all under the root).")
    String collection;

    @Option(names = "--jdbc-url", required = true, paramLabel = "URL",
            description = "The database, e.g. jdbc:sqlite:/srv/mirror.db, jdbc:mariadb://host/db, jdbc:postgresql://host/db.")
    String jdbcUrl;

    @Option(names = "--user", paramLabel = "U", description = "Database user.")
    String user;

    @Option(names = "--password-env", paramLabel = "VAR",
            description = "Name of the environment variable holding the database password.")
    String passwordEnv;

    @Option(names = "--prefix", paramLabel = "P", defaultValue = SqlMirror.DEFAULT_PREFIX,
            description = "Table name prefix, [A-Za-z0-9_]* (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Mixin
    OutputOptions output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws SQLException {
        Path rootPath = checkRoot();
        if (!prefix.matches("[A-Za-z0-9_]*")) {
            throw new CliUsageException("--prefix must match [A-Za-z0-9_]*, got: " + prefix);
        }
        Map<String, Engine> targets = targets(rootPath);
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (passwordEnv != null) {
            String password = System.getenv(passwordEnv);
            if (password == null) {
                throw new CliUsageException("Environment variable " + passwordEnv + " (from --password-env) is not set.");
            }
            props.setProperty("password", password);
        }
        List<AutoCloseable> stores = new ArrayList<>();
        Map<String, Object> report;
        boolean healthy = true;
        try (Connection connection = connect(props);
                ProgressBar progress = ProgressBar.start(output.progress, spec.commandLine().getErr(),
                        "mirror " + action + " " + rootPath,
                        action == Action.push || action == Action.rebuild ? "records" : "collections")) {
            SqlMirror mirror = SqlMirror.builder().connection(connection).prefix(prefix).build();
            targets.forEach((name, engine) -> {
                if (engine == Engine.DOC) {
                    DocStore store = DocStore.open(rootPath, name);
                    stores.add(store);
                    mirror.collection(store, name);
                } else {
                    SegmentedLog log = SegmentedLog.open(rootPath, name);
                    stores.add(log);
                    mirror.collection(log, name, null);
                }
            });
            switch (action) {
                case install -> {
                    mirror.install();
                    Map<String, Object> tables = new LinkedHashMap<>();
                    mirror.collections().forEach(c -> tables.put(c, mirror.table(c)));
                    report = new LinkedHashMap<>();
                    report.put("tables", tables);
                }
                case push -> report = mirror.push(null, progress).toMap();
                case rebuild -> report = mirror.rebuild(null, progress).toMap();
                case pull -> report = mirror.pull().toMap();
                default -> {
                    MirrorVerifyReport verify = mirror.verify();
                    report = verify.toMap();
                    healthy = verify.ok();
                }
            }
        } finally {
            for (AutoCloseable s : stores) {
                try {
                    s.close();
                } catch (Exception ignored) {
                    // closing a store we only read cannot lose data
                }
            }
        }
        output.print(spec.commandLine().getOut(), report);
        return healthy ? StorhCli.EXIT_OK : StorhCli.EXIT_PROBLEMS;
    }

    private Connection connect(Properties props) throws SQLException {
        if (!jdbcUrl.startsWith("jdbc:")) {
            throw new CliUsageException("--jdbc-url must start with jdbc:, got: " + jdbcUrl);
        }
        try {
            return DriverManager.getConnection(jdbcUrl, props);
        } catch (SQLException e) {
            if ("08001".equals(e.getSQLState()) && e.getMessage() != null && e.getMessage().startsWith("No suitable driver")) {
                throw new CliUsageException("No JDBC driver for " + jdbcUrl + " (built in: sqlite, mariadb/mysql, postgresql).");
            }
            throw e;
        }
    }

    private Path checkRoot() {
        if (root == null || root.isBlank()) {
            throw new CliUsageException("Missing storage root: give the folder holding the collections.");
        }
        Path rootPath = Path.of(root);
        if (!Files.isDirectory(rootPath)) {
            throw new CliUsageException("Storage root not found or not a directory: " + rootPath);
        }
        return rootPath;
    }

    private Map<String, Engine> targets(Path rootPath) {
        Map<String, Engine> targets = new LinkedHashMap<>();
        if (collection == null) {
            for (StoreLayout.Found f : StoreLayout.list(rootPath)) {
                if (f.engine() != Engine.QUEUE && NAME.matcher(f.name()).matches()) {
                    targets.put(f.name(), f.engine());
                }
            }
            return targets;
        }
        if (!NAME.matcher(collection).matches()) {
            throw new CliUsageException("Invalid collection name '" + collection + "': a mirrored collection is one"
                    + " folder name of letters, digits, '_' and '-'.");
        }
        Path dir = rootPath.resolve(collection);
        Set<Engine> found = Files.isDirectory(dir) ? StoreLayout.detect(dir) : Set.of();
        if (found.size() != 1 || found.contains(Engine.QUEUE)) {
            throw new CliUsageException("Collection '" + collection + "' under root " + rootPath
                    + " is not a document collection or a segmented log" + (found.isEmpty() ? " (no such store)." : "."));
        }
        targets.put(collection, found.iterator().next());
        return targets;
    }
}

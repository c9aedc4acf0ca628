package io.quire.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A throw-away PostgreSQL server for the sequence baseline: initdb into the results folder, start
 * on a free port, stop at the end. Runs as the {@code postgres} user when started as root.
 */
final class Postgres {

    private final Path bin;
    private final Path data;
    private final int port;
    private final boolean asPostgresUser;

    private Postgres(Path bin, Path data, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.data = data;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    static Postgres start(Path relativeDir, String binHint) throws Exception {
        Path dir = relativeDir.toAbsolutePath(); // the server changes into its data folder: no relative paths
        Path bin = findBin(binHint);
        if (bin == null) {
            return null;
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        Files.createDirectories(dir);
        Path data = dir.resolve("data");
        int port = Processes.freePort();
        Postgres pg = new Postgres(bin, data, port, root);
        if (root) {
            Processes.exec("chown", "-R", "postgres", dir.toString());
        }
        pg.run(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "bench", "--auth=trust");
        pg.run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("postgres.log").toString(),
                "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=300", "-w", "start");
        return pg;
    }

    int port() {
        return port;
    }

    String jdbcUrl(int viaPort) {
        return "jdbc:postgresql://127.0.0.1:" + viaPort + "/postgres?user=bench";
    }

    void stop() throws IOException, InterruptedException {
        run(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "stop");
    }

    private void run(String... cmd) throws IOException, InterruptedException {
        List<String> full = new java.util.ArrayList<>();
        if (asPostgresUser) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(cmd));
        int rc = Processes.exec(full.toArray(String[]::new));
        if (rc != 0) {
            throw new IllegalStateException("failed (" + rc + "): " + String.join(" ", full));
        }
    }

    private static Path findBin(String hint) throws IOException {
        if (!hint.isEmpty()) {
            return Path.of(hint);
        }
        Path base = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(base)) {
            return null;
        }
        try (var versions = Files.list(base)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("postgres")))
                    .max(Path::compareTo).orElse(null);
        }
    }
}

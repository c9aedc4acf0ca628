package io.quire.client.plan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The id and message a change is recorded with in Quire's audit trail. Given, or by default from
 * Git when the folder is in a repository (the commit it is at and that commit's subject line, with
 * "+dirty" when the folder has changes not committed), else a random id and no message.
 */
public record ChangeInfo(String id, String message) {

    public static ChangeInfo of(String id, String message, Path folder) {
        if (id != null && message != null) {
            return new ChangeInfo(id, message);
        }
        String commit = git(folder, "rev-parse", "HEAD");
        String gitId = null;
        String gitMessage = null;
        if (commit != null) {
            String dirty = git(folder, "status", "--porcelain", "--", ".");
            gitId = "git:" + commit + (dirty != null && !dirty.isEmpty() ? "+dirty" : "");
            gitMessage = git(folder, "log", "-1", "--format=%s");
        }
        return new ChangeInfo(id != null ? id : gitId != null ? gitId : "cs-" + UUID.randomUUID(),
                message != null ? message : gitMessage);
    }

    /** The output of a Git command run in {@code dir}, stripped; null when Git is absent or fails. */
    static String git(Path dir, String... args) {
        if (dir == null) {
            return null;
        }
        String[] cmd = new String[args.length + 3];
        cmd[0] = "git";
        cmd[1] = "-C";
        cmd[2] = dir.toAbsolutePath().toString();
        System.arraycopy(args, 0, cmd, 3, args.length);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            p.getErrorStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return new String(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return null; // no git on the path
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}

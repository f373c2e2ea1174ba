package io.gridway.testkit;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;

/**
 * Running a server as another OS user when the tests run as root (as they do on the developers'
 * machines and in CI): PostgreSQL refuses to start as root, and MariaDB only with {@code
 * --user=root}.
 *
 * <p>Stateless and thread-safe.
 */
final class OsUser {
  private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

  private OsUser() {}

  static boolean isRoot() {
    return new UnixSystem().getUid() == 0;
  }

  /**
   * {@code command} run as {@code user}. {@code setpriv} execs the command in place, unlike {@code
   * su} or {@code runuser}, which stay as its parent: so the pid we hold is the server's own, and
   * our signals reach it.
   */
  static List<String> runAs(String user, List<String> command) {
    if (!Files.isExecutable(SETPRIV)) {
      throw new IllegalStateException(
          SETPRIV
              + " is missing; it is needed to run the server as '"
              + user
              + "' when the tests run as root. Install the Debian package util-linux.");
    }
    List<String> wrapped =
        new ArrayList<>(
            List.of(
                SETPRIV.toString(), "--reuid=" + user, "--regid=" + user, "--init-groups", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  static void chown(Path path, String user) {
    try {
      UserPrincipalLookupService users = path.getFileSystem().getUserPrincipalLookupService();
      Files.setOwner(path, users.lookupPrincipalByName(user));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot give " + path + " to the OS user '" + user + "'", e);
    }
  }
}

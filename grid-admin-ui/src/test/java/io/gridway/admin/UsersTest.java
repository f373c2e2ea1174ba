package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsersTest {
  /** Few rounds: these tests check the logic, not the cost (production uses 210,000). */
  private static final int ROUNDS = 1000;

  @Test
  void firstOpenCreatesAnAdminWithARandomPasswordInAPrivateFile(@TempDir Path dir) throws Exception {
    Users users = Users.open(dir, ROUNDS);
    Path secret = dir.resolve(Users.INITIAL_PASSWORD_FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(Users.FILE)))).isEqualTo("rw-------");
    String password = Files.readString(secret).trim();
    assertThat(users.authenticate("admin", password)).contains(Role.ADMIN);
    assertThat(users.authenticate("admin", password + "x")).isEmpty();
    assertThat(users.authenticate("nobody", password)).isEmpty();
    assertThat(Files.readString(dir.resolve(Users.FILE))).doesNotContain(password).contains("\"iterations\" : 1000");

    Path other = Files.createDirectory(dir.resolve("other"));
    Users.open(other, ROUNDS);
    assertThat(Files.readString(other.resolve(Users.INITIAL_PASSWORD_FILE)).trim()).isNotEqualTo(password);
  }

  @Test
  void reopeningKeepsUsersAndWritesNoNewCredential(@TempDir Path dir) throws Exception {
    Users.open(dir, ROUNDS).add("vera", Role.VIEWER, "a-long-password-1");
    Files.delete(dir.resolve(Users.INITIAL_PASSWORD_FILE));
    Users again = Users.open(dir, ROUNDS);
    assertThat(Files.exists(dir.resolve(Users.INITIAL_PASSWORD_FILE))).isFalse();
    assertThat(again.authenticate("vera", "a-long-password-1")).contains(Role.VIEWER);
    assertThat(again.roles()).containsEntry("admin", "admin").containsEntry("vera", "viewer");
  }
}

package io.gridway.admin;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users of the admin service, in {@code <stateDir>/users.json} (mode 0600): name, role, and a salted
 * PBKDF2-HMAC-SHA256 hash of the password, never the password. There is no default password: when the file does not
 * exist, {@link #open} creates user {@code admin} with a random password and writes that password to {@code
 * <stateDir>/initial-admin-password} (mode 0600, created with that mode so it is never readable by others), logging
 * the file's path, not the password. Thread-safe.
 */
final class Users {
  private static final Logger LOG = LoggerFactory.getLogger(Users.class);
  static final String FILE = "users.json";
  static final String INITIAL_PASSWORD_FILE = "initial-admin-password";
  static final int MIN_PASSWORD = 12;
  private static final int ITERATIONS = 210_000;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One stored user. */
  record User(String name, String role, String salt, String hash, int iterations) {}

  private final Path file;
  private final int iterations; // for new hashes; each stored user keeps its own count
  private final Map<String, User> users; // guarded by this

  private Users(Path file, int iterations, Map<String, User> users) {
    this.file = file;
    this.iterations = iterations;
    this.users = users;
  }

  /** Reads the users file, or creates it with a first admin (see the class comment). */
  static Users open(Path stateDir) {
    return open(stateDir, ITERATIONS);
  }

  /** As {@link #open(Path)}, hashing new passwords with {@code iterations} rounds (unit tests use few). */
  static Users open(Path stateDir, int iterations) {
    Path file = stateDir.resolve(FILE);
    try {
      if (Files.exists(file)) {
        List<User> list = JSON.readValue(file.toFile(), new TypeReference<List<User>>() {});
        Map<String, User> map = new TreeMap<>();
        list.forEach(u -> map.put(u.name(), u));
        return new Users(file, iterations, map);
      }
      Users created = new Users(file, iterations, new TreeMap<>());
      String password = Sessions.token().substring(0, 24);
      Path secret = stateDir.resolve(INITIAL_PASSWORD_FILE);
      Files.deleteIfExists(secret);
      Files.createFile(secret, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(secret, password + "\n", StandardCharsets.UTF_8);
      created.add("admin", Role.ADMIN, password);
      LOG.info("first start: created user admin; its password is in {} (readable by this user only)", secret);
      return created;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create " + file + ": " + e.getMessage(), e);
    }
  }

  /** The user's role when the password is right; empty otherwise (unknown users cost the same time). */
  Optional<Role> authenticate(String name, String password) {
    User u;
    synchronized (this) {
      u = users.get(name);
    }
    // an unknown user costs one hash too, so timing does not tell which names exist
    byte[] actual = hash(password, u == null ? new byte[16] : Base64.getDecoder().decode(u.salt()), u == null ? iterations : u.iterations());
    return u != null && MessageDigest.isEqual(Base64.getDecoder().decode(u.hash()), actual) ? Optional.of(Role.parse(u.role()))
        : Optional.empty();
  }

  /** Adds or replaces a user and rewrites the file. */
  synchronized void add(String name, Role role, String password) {
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    users.put(name, new User(name, role.wireName(), Base64.getEncoder().encodeToString(salt),
        Base64.getEncoder().encodeToString(hash(password, salt, iterations)), iterations));
    write();
  }

  /** Name → role of every user (no hashes). */
  synchronized Map<String, String> roles() {
    Map<String, String> roles = new TreeMap<>();
    users.values().forEach(u -> roles.put(u.name(), u.role()));
    return roles;
  }

  private void write() {
    try {
      Path tmp = file.resolveSibling(FILE + ".tmp");
      Files.deleteIfExists(tmp);
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.write(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(List.copyOf(users.values())));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  private static byte[] hash(String password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 unavailable: " + e.getMessage(), e);
    } finally {
      spec.clearPassword();
    }
  }
}

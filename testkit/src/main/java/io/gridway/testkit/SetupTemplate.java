package io.gridway.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data directory a set-up command (mariadb-install-db, initdb) makes, made once per machine and copied into each new
 * instance: the command takes seconds, the copy a fraction of one, and a suite starts a few dozen servers.
 *
 * <p>A template is keyed by the command line (with the instance directory left out) and by the size and modification
 * time of the command's binary, so a changed option or an upgraded server makes a new one. It is made in a directory of
 * its own and renamed into place, so concurrent JVMs never see half of one; the one that loses the race drops its copy.
 * {@code cp -a} keeps the owner that {@code initdb} needs on its files when the tests run as root.
 */
final class SetupTemplate {
  private static final Logger LOG = LoggerFactory.getLogger(SetupTemplate.class);
  private static final Path PLACEHOLDER = Path.of("/instance");
  private static final Duration COPY_TIMEOUT = Duration.ofSeconds(60);

  private final String name;
  private final Path binary;
  private final Function<Path, List<String>> command;
  private final Function<Path, Path> dataDir;
  private final Function<Path, Path> log;
  private final Consumer<Path> prepare;
  private final Duration timeout;

  /**
   * @param binary the set-up command's program (its size and time tell a server upgrade)
   * @param command the set-up command for an instance directory
   * @param dataDir where in an instance directory the command writes (what is copied)
   * @param log where in an instance directory its output goes
   * @param prepare what an instance directory needs before the command runs (e.g. its owner)
   */
  SetupTemplate(String name, Path binary, Function<Path, List<String>> command, Function<Path, Path> dataDir,
      Function<Path, Path> log, Consumer<Path> prepare, Duration timeout) {
    this.name = name;
    this.binary = binary;
    this.command = command;
    this.dataDir = dataDir;
    this.log = log;
    this.prepare = prepare;
    this.timeout = timeout;
  }

  /** Fills {@code instanceDir}'s data directory as the set-up command would. */
  void copyInto(Path instanceDir) {
    Path template = templateDir();
    if (!Files.isDirectory(template)) {
      make(template);
    }
    long begin = System.nanoTime();
    copy(dataDir.apply(template), dataDir.apply(instanceDir));
    LOG.info("{}: copied its template {} in {} ms", name, template.getFileName(), (System.nanoTime() - begin) / 1_000_000);
  }

  private Path templateDir() {
    List<String> line = command.apply(PLACEHOLDER);
    try {
      String identity = String.join("\n", line) + "\n" + Files.size(binary) + "\n" + Files.getLastModifiedTime(binary);
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
      return templatesRoot().resolve(name + "-" + HexFormat.of().formatHex(digest, 0, 8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + binary, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private void make(Path template) {
    Path partial;
    try {
      partial = Files.createTempDirectory(template.getParent(), template.getFileName() + ".partial-");
      Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory under " + template.getParent(), e);
    }
    try {
      prepare.accept(partial);
      ServerProcess.runToCompletion(name, command.apply(partial), partial, log.apply(partial), timeout);
      Files.move(partial, template, StandardCopyOption.ATOMIC_MOVE);
      LOG.info("{}: made the template {} that later instances copy", name, template);
    } catch (FileAlreadyExistsException | DirectoryNotEmptyException anotherJvmWasFirst) {
      WorkArea.deleteTree(WorkArea.root(), partial);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IllegalStateException("cannot rename " + partial + " to " + template, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rename " + partial + " to " + template, e);
    } catch (RuntimeException e) {
      WorkArea.deleteTree(WorkArea.root(), partial);
      throw e;
    }
  }

  private static void copy(Path from, Path to) {
    ProcessBuilder cp = new ProcessBuilder("cp", "-a", from.toString(), to.toString()).redirectErrorStream(true);
    try {
      Process process = cp.start();
      process.getOutputStream().close();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(COPY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException("cannot copy " + from + " to " + to + ": " + new String(output, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run cp -a " + from + " " + to, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while copying " + from, e);
    }
  }

  private static Path templatesRoot() {
    Path dir = WorkArea.root().resolve("templates");
    try {
      Files.createDirectories(dir);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }
}

package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fetcher exports three types: itself, its config and its registration. (What it may depend on is deploy's
 * LayeringTest.)
 */
class ExportedTypesTest {
  private static final Path SOURCES = Path.of("src/main/java/io/gridway/fetcher/mysql");

  @Test
  void onlyTheFetcherAndItsConfigArePublic() throws IOException {
    List<String> publicTypes = sources().stream()
        .filter(file -> {
          try {
            return Pattern.compile("^public (final )?(class|record|interface|enum) ", Pattern.MULTILINE)
                .matcher(Files.readString(file)).find();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        })
        .map(file -> file.getFileName().toString())
        .sorted()
        .toList();
    assertThat(publicTypes).containsExactly("MysqlBinlogFetcher.java", "MysqlFetcherConfig.java", "MysqlFetcherProvider.java");
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.list(SOURCES)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList();
    }
  }
}

package io.gridway.fetcher.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The build holds the layering (DESIGN §2): a fetcher depends on core only, and exports two types. */
class LayeringTest {
  private static final Path SOURCES = Path.of("src/main/java/io/gridway/fetcher/mysql");
  private static final Pattern GRIDWAY_IMPORT = Pattern.compile("^import (?:static )?(io\\.gridway\\.[\\w.]+);", Pattern.MULTILINE);

  @Test
  void mainCodeImportsNothingOfGridwayButCore() throws IOException {
    for (Path file : sources()) {
      Matcher m = GRIDWAY_IMPORT.matcher(Files.readString(file));
      while (m.find()) {
        assertThat(m.group(1)).as(file.getFileName() + " imports " + m.group(1))
            .matches("io\\.gridway\\.(core|fetcher\\.mysql)\\..*");
      }
    }
  }

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
    assertThat(publicTypes).containsExactly("MysqlBinlogFetcher.java", "MysqlFetcherConfig.java");
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.list(SOURCES)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList();
    }
  }
}

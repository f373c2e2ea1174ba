package io.gridway.fetcher.goldengate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The build holds the layering (DESIGN §2): this fetcher depends on core only, and exports its fetcher, config, provider, the
 * limit reader and the file generator (for tests and benchmarks). */
class LayeringTest {
  private static final Path SOURCES = Path.of("src/main/java/io/gridway/fetcher/goldengate");
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+);", Pattern.MULTILINE);

  @Test
  void mainCodeImportsOnlyCoreJacksonSlf4jAndTheJdk() throws IOException {
    for (Path file : sources()) {
      Matcher m = IMPORT.matcher(Files.readString(file));
      while (m.find()) {
        assertThat(m.group(1)).as(file.getFileName() + " imports " + m.group(1))
            .matches("(io\\.gridway\\.core\\.|com\\.fasterxml\\.jackson\\.|org\\.slf4j\\.|java\\.|javax\\.xml\\.stream\\.).*");
      }
    }
  }

  @Test
  void onlyTheFetcherItsConfigProviderLimitReaderAndGeneratorArePublic() throws IOException {
    Pattern publicType = Pattern.compile("^public (final )?(class|record|interface|enum) ", Pattern.MULTILINE);
    List<String> publicTypes = sources().stream()
        .filter(file -> {
          try {
            return publicType.matcher(Files.readString(file)).find();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        })
        .map(file -> file.getFileName().toString())
        .sorted()
        .toList();
    assertThat(publicTypes).containsExactly("GoldenGateConfig.java", "GoldenGateFetcher.java", "GoldenGateFetcherProvider.java", "GoldenGateFiles.java",
        "TrailLimitReader.java");
  }

  private static List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.list(SOURCES)) {
      return files.filter(f -> f.toString().endsWith(".java")).toList();
    }
  }
}

package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StaticFilesTest {
  private final StaticFiles files = new StaticFiles();

  @Test
  void servesThePageItsModuleAndChartJsFromTheWebjar() {
    assertThat(new String(files.get("/").body(), StandardCharsets.UTF_8)).contains("<script type=\"module\" src=\"/ui/app.js\">");
    assertThat(files.get("/ui/app.js").contentType()).startsWith("text/javascript");
    assertThat(files.get("/ui/style.css").contentType()).startsWith("text/css");
    assertThat(new String(files.get("/vendor/chart.umd.min.js").body(), StandardCharsets.UTF_8)).contains("Chart");
  }

  @Test
  void servesNothingElse() {
    assertThat(files.get("/ui/../openapi.json")).isNull();
    assertThat(files.get("/ui/missing.js")).isNull();
    assertThat(files.get("/io/gridway/admin/Api.class")).isNull();
    assertThat(files.get("/ui/app.JS")).isNull();
  }

  @Test
  void thePageLoadsNoInlineScriptNorAnythingFromAnotherOrigin() {
    String html = new String(files.get("/").body(), StandardCharsets.UTF_8);
    assertThat(html).doesNotContain("http://").doesNotContain("https://").doesNotContain("<script>").doesNotContain("onclick");
  }
}

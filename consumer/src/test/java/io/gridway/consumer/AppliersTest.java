package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.consumer.apply.LoggingApplier;
import io.gridway.consumer.apply.NullApplier;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AppliersTest {
  private static Batch batch() {
    List<Window> windows = new ArrayList<>();
    for (WindowData w : Pipeline.windows(TestFrames.transaction(7, 0, 1, 2), TestFrames.transaction(9, 0, 3))) {
      windows.add(Window.whole(w));
    }
    return new Batch(0, 0, -1, windows, 7, 9);
  }

  @Test
  void theLoggingApplierWritesOneJsonObjectPerEventPerLine() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LoggingApplier applier = new LoggingApplier(out);
    applier.apply(batch());
    applier.apply(batch());
    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n", -1);
    assertThat(lines).hasSize(7);
    assertThat(lines[6]).isEmpty();
    JsonNode first = new ObjectMapper().readTree(lines[0]);
    assertThat(first.get("scn").asText()).isEqualTo("7");
    assertThat(first.get("op").asText()).isEqualTo("insert");
    assertThat(first.get("table").asText()).isEqualTo("t");
    assertThat(first.get("after").get("v").asText()).isEqualTo("value-1-7");
    assertThat(new ObjectMapper().readTree(lines[5]).get("scn").asText()).isEqualTo("9");
  }

  @Test
  void theNullApplierCountsWithoutDecoding() {
    NullApplier applier = new NullApplier();
    applier.apply(batch());
    assertThat(applier.batches()).isEqualTo(1);
    assertThat(applier.windows()).isEqualTo(2);
    assertThat(applier.events()).isEqualTo(3);
  }
}

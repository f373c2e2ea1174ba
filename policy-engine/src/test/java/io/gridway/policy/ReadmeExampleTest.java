package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's complete example must stay a valid policy. */
class ReadmeExampleTest {

  @Test
  void theCompleteExampleLoads() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    int start = readme.indexOf("```yaml\nname: shop-fetch");
    String yaml = readme.substring(readme.indexOf('\n', start) + 1, readme.indexOf("```", start + 7));
    Policy policy = PolicyLoader.create().withEnvironment(Map.of("GRIDWAY_HASH_KEY", "0123456789abcdef")::get).parse("README.md", yaml);
    assertThat(policy.summary()).isEqualTo("policy 'shop-fetch' version 7: 7 rules (1 columns, 1 conflict, 3 partition, 1 route, 1 where), "
        + "include [shop.*, billing.invoice_*], exclude [shop.tmp_*, *.audit], origin dc-east");
  }
}

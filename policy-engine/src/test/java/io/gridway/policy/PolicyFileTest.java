package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyFileTest {

  @Test
  void takesAChangedFileThatLoadsAndKeepsTheOldVersionWhenTheNewOneDoesNot(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("p.yaml");
    Files.writeString(file, "name: p\nversion: 1\n");
    PolicyFile policy = PolicyFile.load(file, PolicyLoader.create());
    assertThat(policy.current().version()).isEqualTo(1);
    assertThat(policy.check()).as("unchanged").isNull();

    Files.writeString(file, "name: p\nversion: 2\nrules:\n  - name: bad\n    where: after.x >\n");
    assertThat(policy.check()).isNull();
    assertThat(policy.current().version()).isEqualTo(1);
    assertThat(policy.lastError()).startsWith(file + ":5:").contains("rule 'bad' (where)").contains("does not parse");

    Files.writeString(file, "name: p\nversion: 3\norigin: dc-1\n");
    assertThat(policy.check().version()).isEqualTo(3);
    assertThat(policy.current().origin()).isEqualTo("dc-1");
    assertThat(policy.lastError()).isNull();

    Files.delete(file);
    assertThat(policy.check()).as("a missing file is an error, not a policy").isNull();
    assertThat(policy.current().version()).isEqualTo(3);
    assertThat(policy.lastError()).isNotNull();
  }
}

package io.gridway.relay.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.policy.PolicyException;
import io.gridway.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyReloaderTest {
  @TempDir Path dir;

  private static String policy(int version) {
    return "name: p\nversion: " + version + "\nexclude: ['db.skip']\n";
  }

  private static void replace(Path file, String text) throws Exception {
    Path temp = file.resolveSibling("new.yaml");
    Files.writeString(temp, text);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void aChangedFileIsSwappedInAndAnInvalidOneKeepsTheOld() throws Exception {
    Path file = dir.resolve("p.yaml");
    Files.writeString(file, policy(1));
    PolicyReloader reloader = PolicyReloader.start("s", new PolicyConfig(List.of(file.toString()), null), PolicyLoader.create());
    ActivePolicies active = reloader.active();
    assertThat(active.version(0)).isEqualTo(1);
    reloader.check();
    assertThat(active.version(0)).isEqualTo(1);

    replace(file, policy(2));
    reloader.check();
    assertThat(active.version(0)).isEqualTo(2);
    assertThat(active.lastError()).isNull();

    replace(file, "name: p\nversion: 3\nrules:\n  - name: r\n    where: 'row.x =='\n");
    reloader.check();
    assertThat(active.version(0)).isEqualTo(2);
    assertThat(active.lastError()).contains("p.yaml");

    replace(file, policy(4));
    reloader.check();
    assertThat(active.version(0)).isEqualTo(4);
    assertThat(active.lastError()).isNull();
  }

  @Test
  void anInvalidPolicyAtStartUpIsAnError() throws Exception {
    Path file = dir.resolve("p.yaml");
    Files.writeString(file, "name: p\n");
    assertThatThrownBy(() -> PolicyReloader.start("s", new PolicyConfig(List.of(file.toString()), null), PolicyLoader.create()))
        .isInstanceOf(PolicyException.class);
  }
}

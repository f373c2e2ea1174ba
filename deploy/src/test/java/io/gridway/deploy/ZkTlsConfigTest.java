package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.cluster.ZkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZkTlsConfigTest {
  @TempDir Path dir;

  @Test
  void zkTlsReachesTheClusterModule() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "CA");
    Path keys = Files.writeString(dir.resolve("controller.pem"), "KEY+CERT");
    Path yaml = Files.writeString(dir.resolve("controller.yaml"), "cluster: gridway\nname: c1\nzk:\n  connect: zk1:2281\n"
        + "  tls: {caFile: " + ca + ", keyStoreFile: " + keys + "}\n");
    ZkConfig zk = ControllerConfig.load(yaml).zk().clientConfig();
    assertThat(zk.tls().caFile()).isEqualTo(ca);
    assertThat(zk.tls().keyStoreFile()).isEqualTo(keys);
  }

  @Test
  void aclSubjectsReachTheClusterModuleAndMustNameTheProcesssOwnCertificate() throws Exception {
    io.gridway.testkit.TestPki pki = io.gridway.testkit.TestPki.create(dir.resolve("pki"));
    Path keys = pki.client("gridway-controller").pemKeyStore(dir.resolve("controller.pem"));
    String head = "cluster: gridway\nname: c1\nzk:\n  connect: zk1:2281\n  tls:\n    caFile: " + pki.caFile()
        + "\n    keyStoreFile: " + keys + "\n    acl:\n";
    Path yaml = Files.writeString(dir.resolve("controller.yaml"), head + "      - CN=gridway-controller\n      - CN=gridway-relay, O=Example\n");
    assertThat(ControllerConfig.load(yaml).zk().clientConfig().tls().acl())
        .containsExactly("CN=gridway-controller", "CN=gridway-relay,O=Example");
    Path other = Files.writeString(dir.resolve("other.yaml"), head + "      - CN=gridway-relay\n");
    assertThatThrownBy(() -> ControllerConfig.load(other)).hasMessageContaining("zk.tls.acl [CN=gridway-relay] does not name "
        + "this process's certificate subject CN=gridway-controller");
  }

  @Test
  void anUnreadableCaFileIsAnErrorNamingTheKeyAndTheFile() throws Exception {
    Path yaml = Files.writeString(dir.resolve("controller.yaml"), "cluster: gridway\nname: c1\nzk:\n  connect: zk1:2281\n"
        + "  tls: {caFile: " + dir.resolve("missing.pem") + "}\n");
    assertThatThrownBy(() -> ControllerConfig.load(yaml)).hasMessageContaining("zk.tls.caFile")
        .hasMessageContaining("missing.pem");
  }

  @Test
  void aPasswordKeyIsRefused() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.pem"), "CA");
    Path yaml = Files.writeString(dir.resolve("controller.yaml"), "cluster: gridway\nname: c1\nzk:\n  connect: zk1:2281\n"
        + "  tls: {caFile: " + ca + ", keyStorePassword: secret}\n");
    assertThatThrownBy(() -> ControllerConfig.load(yaml)).hasMessageContaining("keyStorePassword")
        .hasMessageNotContaining("secret");
  }
}

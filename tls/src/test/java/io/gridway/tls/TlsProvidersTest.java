package io.gridway.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.Test;

class TlsProvidersTest {
  @Test
  void theShippedBoringSslLoadsOnLinuxX86AndIsTheDefault() {
    assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"),
        "netty-tcnative-boringssl-static is shipped for linux-x86_64 only");
    assertThat(OpenSsl.isAvailable()).as("OpenSSL unavailable: %s", OpenSsl.unavailabilityCause()).isTrue();
    assertThat(TlsProviders.choose(null)).isEqualTo(SslProvider.OPENSSL);
    assertThat(TlsProviders.choose("OpenSSL ")).isEqualTo(SslProvider.OPENSSL);
  }

  @Test
  void jdkOverridesTheChoice() {
    assertThat(TlsProviders.choose("jdk")).isEqualTo(SslProvider.JDK);
  }

  @Test
  void anUnknownSettingIsRefusedNamingTheProperty() {
    assertThatThrownBy(() -> TlsProviders.choose("boring"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gridway.tls.provider=boring: expected jdk or openssl");
  }
}

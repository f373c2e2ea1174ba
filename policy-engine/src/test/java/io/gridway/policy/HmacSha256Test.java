package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class HmacSha256Test {

  @Test
  void matchesRfc4231TestVectors() {
    byte[] key1 = new byte[20];
    Arrays.fill(key1, (byte) 0x0b);
    assertThat(hex(new HmacSha256(key1).mac(ascii("Hi There"))))
        .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    assertThat(hex(new HmacSha256(ascii("Jefe")).mac(ascii("what do ya want for nothing?"))))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    byte[] longKey = new byte[131];
    Arrays.fill(longKey, (byte) 0xaa);
    assertThat(hex(new HmacSha256(longKey).mac(ascii("Test Using Larger Than Block-Size Key - Hash Key First"))))
        .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  }

  @Test
  void hashesTheCanonicalTextSoOperatorsCanReproduceIt() {
    // printf %s 'ann@example.com' | openssl dgst -sha256 -hmac '0123456789abcdef-test-key'
    HmacSha256 hmac = new HmacSha256(ascii(Fixtures.KEY));
    assertThat(hmac.hex("ann@example.com")).isEqualTo("eebf551d64a71001ed14cbc419056e87e4430381d9a51ee25c8ebeb8eeec045f");
    assertThat(hmac.hex(42L)).isEqualTo("9a28f91c6637b30bcf118306b0b743728bc7255751f0bcc82a157e8c60e6d68f");
  }

  @Property(tries = 200)
  void equalsTheJdkMac(@ForAll byte[] key, @ForAll byte[] message) throws Exception {
    if (key.length == 0) {
      return;
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    assertThat(new HmacSha256(key).mac(message)).isEqualTo(mac.doFinal(message));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}

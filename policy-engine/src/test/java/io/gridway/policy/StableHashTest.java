package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * Fixed vectors for the partitioning hash. The xxHash64 values come from the reference {@code
 * xxhsum -H1}; the key vectors were encoded by hand from the table in {@link KeyEncoding} and
 * hashed with {@code xxhsum}. If one of these changes, every relay's partitioning changes: don't.
 */
class StableHashTest {

  @Test
  void xxHash64MatchesTheReferenceImplementation() {
    assertThat(hash("")).isEqualTo(0xef46db3751d8e999L);
    assertThat(hash("a")).isEqualTo(0xd24ec4f1a98c6e5bL);
    assertThat(hash("abc")).isEqualTo(0x44bc2cf5ad770999L);
    assertThat(hash("Nobody inspects the spammish repetition")).isEqualTo(0xfbcea83c8a378bf1L);
    assertThat(hash("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")).isEqualTo(0x7639d419de614eedL);
    byte[] hundred = new byte[100];
    for (int i = 0; i < hundred.length; i++) {
      hundred[i] = (byte) i;
    }
    assertThat(XxHash64.hash(hundred)).isEqualTo(0x6ac1e58032166597L);
  }

  @Test
  void keyEncodingIsTheDocumentedByteLayout() {
    assertThat(hex(KeyEncoding.encode(List.of(42L)))).isEqualTo("01000000000000002a");
    assertThat(hex(KeyEncoding.encode(Arrays.asList(7L, "ann")))).isEqualTo("010000000000000007" + "0300000003616e6e");
    assertThat(hex(KeyEncoding.encode(List.of("héllo")))).isEqualTo("030000000668c3a96c6c6f");
    assertThat(hex(KeyEncoding.encode(List.of(new BigInteger("18446744073709551615"))))).isEqualTo("02ffffffffffffffff");
    assertThat(hex(KeyEncoding.encode(List.of(new BigDecimal("1.50"))))).isEqualTo("0500000003312e35");
    assertThat(hex(KeyEncoding.encode(Arrays.asList((Object) null)))).isEqualTo("00");
  }

  @Test
  void keyHashesAreFixedVectors() {
    assertThat(XxHash64.hash(KeyEncoding.encode(List.of(42L)))).isEqualTo(0x7e1480456b8f3aa6L);
    assertThat(XxHash64.hashTaggedLong(0x01, 42L)).isEqualTo(0x7e1480456b8f3aa6L);
    assertThat(XxHash64.hash(KeyEncoding.encode(Arrays.asList(7L, "ann")))).isEqualTo(0x15b6713be7eeebf1L);
    assertThat(XxHash64.hash(KeyEncoding.encode(List.of("héllo")))).isEqualTo(0x691e824532f9d666L);
    assertThat(XxHash64.hash(KeyEncoding.encode(List.of(-1L)))).isEqualTo(0xe4a42358fe73e0b6L);
    assertThat(XxHash64.hash(KeyEncoding.encode(List.of(new BigInteger("18446744073709551615"))))).isEqualTo(0x0c72a2d6abb7c8ffL);
    assertThat(XxHash64.hash(KeyEncoding.encode(List.of(new BigDecimal("1.50"))))).isEqualTo(0x7168f6fcd0230510L);
  }

  @Test
  void anIntegerHashesTheSameWhateverItsColumnType() {
    assertThat(KeyEncoding.encode(List.of(BigInteger.valueOf(42)))).isEqualTo(KeyEncoding.encode(List.of(42L)));
    assertThat(KeyEncoding.encode(List.of(new BigDecimal("2.500")))).isEqualTo(KeyEncoding.encode(List.of(new BigDecimal("2.5"))));
    assertThat(KeyEncoding.encode(List.of(-0.0))).isEqualTo(KeyEncoding.encode(List.of(0.0)));
  }

  @Test
  void separatesValuesSoThatConcatenationsDoNotCollide() {
    assertThat(KeyEncoding.encode(List.of("ab", "c"))).isNotEqualTo(KeyEncoding.encode(List.of("a", "bc")));
    assertThat(KeyEncoding.encode(List.of("1"))).isNotEqualTo(KeyEncoding.encode(List.of(1L)));
  }

  @Test
  void theRowFastPathEncodesLikeTheGeneralOne() {
    assertThat(KeyEncoding.encode(Fixtures.order(42, "PAID", 1L), new int[] {0})).isEqualTo(KeyEncoding.encode(List.of(42L)));
    assertThat(KeyEncoding.encode(Fixtures.order(42, "PAID", 1L), new int[] {0, 1})).isEqualTo(KeyEncoding.encode(List.of(42L, "PAID")));
  }

  @Property(tries = 500)
  void theSingleIntegerKeyShortcutEqualsTheGeneralHash(@ForAll long id) {
    assertThat(XxHash64.hashTaggedLong(0x01, id)).isEqualTo(XxHash64.hash(KeyEncoding.encode(List.of(id))));
  }

  private static long hash(String s) {
    return XxHash64.hash(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}

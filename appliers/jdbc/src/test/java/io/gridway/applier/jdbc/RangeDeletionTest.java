package io.gridway.applier.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class RangeDeletionTest {
  @Test
  void anIntegerFromAnEventACursorOrADriverHasOneFormSoKeysCompareEqual() {
    assertThat(RangeDeletion.integer(7)).isEqualTo(7L);
    assertThat(RangeDeletion.integer(7L)).isEqualTo(7L);
    assertThat(RangeDeletion.integer(BigInteger.valueOf(7))).isEqualTo(7L);
    assertThat(RangeDeletion.integer(new BigDecimal("7"))).isEqualTo(7L);
    assertThat(RangeDeletion.integer("7")).isEqualTo(7L);
    BigInteger above = new BigInteger("18446744073709551615"); // BIGINT UNSIGNED's largest
    assertThat(RangeDeletion.integer(above)).isEqualTo(above);
    assertThat(RangeDeletion.integer(new BigDecimal(above))).isEqualTo(above);
  }
}

package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatabaseNamesTest {
  private final DatabaseNames names = new DatabaseNames();

  @Test
  void namesAreLowerCaseAndNeverRepeat() {
    assertThat(names.next("Orders")).isEqualTo("orders_1");
    assertThat(names.next("orders")).isEqualTo("orders_2");
  }

  @Test
  void rejectsPrefixesThatWouldNeedQuoting() {
    assertThatThrownBy(() -> names.next("drop table;"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> names.next("1st")).isInstanceOf(IllegalArgumentException.class);
  }
}

package io.gridway.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource(delimiter = '|', value = {
      "shop.*         | shop.orders      | true",
      "shop.*         | shop2.orders     | false",
      "shop*.*        | shop2.orders     | true",
      "shop*.*        | shop.orders      | true",
      "*.*            | any.thing        | true",
      "*.audit        | shop.audit       | true",
      "*.audit        | shop.audit_log   | false",
      "shop.order*    | shop.order       | true",
      "shop.order*    | shop.orders      | true",
      "shop.?rders    | shop.orders      | true",
      "shop.?rders    | shop.rders       | false",
      "shop.o?ders    | shop.oders       | false",
      "shop.t_x       | shop.tax         | false",
      "shop.t_x       | shop.t_x         | true",
      "shop.t%x       | shop.tax         | false",
      "shop.a+b       | shop.a+b         | true",
      "shop.a+b       | shop.aab         | false",
      "shop.(x)       | shop.(x)         | true",
      "shop.*_log     | shop.audit_log   | true",
      "shop.*_log     | shop._log        | true",
      "shop.*_log     | shop.audit_logs  | false",
      "shop.*a*b*     | shop.xxaxxbxx    | true",
      "shop.*a*b*     | shop.xxbxxaxx    | false",
      "shop.**        | shop.orders      | true",
      "Shop.orders    | shop.orders      | false",
      "shop.*\\*      | shop.x*          | true",
      "shop.*\\*      | shop.xy          | false",
      "my\\.db.t      | my.db.t          | true",
      "shop.*s        | shop.s           | true",
      "shop.a*a*a     | shop.aa          | false",
      "shop.a*a*a     | shop.aaa         | true",
  })
  void matchesLikeAShellGlobPerPart(String pattern, String qualified, boolean expected) {
    int dot = qualified.indexOf('.');
    // "my.db.t": a database named "my.db"
    if (pattern.startsWith("my\\.")) {
      dot = qualified.lastIndexOf('.');
    }
    TablePattern p = TablePattern.parse(pattern, Loc.UNKNOWN);
    assertThat(p.matches(qualified.substring(0, dot), qualified.substring(dot + 1))).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "orders     | must be database.table",
      "a.b.c      | more than one dot",
      ".orders    | empty name pattern",
      "shop.      | empty name pattern",
      "shop.x\\   | lone backslash",
  })
  void rejectsMalformedPatterns(String pattern, String reason) {
    assertThatThrownBy(() -> TablePattern.parse(pattern, Loc.UNKNOWN)).hasMessageContaining(reason);
  }

  @ParameterizedTest
  @CsvSource({"*,''", "*,x", "a*,a", "*a,a", "?,x"})
  void starMatchesTheEmptyStringButQuestionMarkDoesNot(String glob, String name) {
    assertThat(Glob.compile(glob).matches(name)).isTrue();
    assertThat(Glob.compile("?").matches("")).isFalse();
  }
}

package io.gridway.policy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.policy.PolicyLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyCommandsTest {
  private static final String GOOD = """
      name: shop
      version: 4
      include: ['shop.*']
      hash-key: {file: hash.key}
      rules:
        - name: paid
          tables: [shop.orders]
          where: row.status == 'PAID' && row.amount > 10
        - name: pii
          tables: [shop.orders]
          columns: {hash: [email], mask: {phone: '***'}, drop: [note]}
        - name: spread
          tables: [shop.orders]
          partition: {key-hash: 16}
      """;

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private PrintStream print(ByteArrayOutputStream to) {
    return new PrintStream(to, true, StandardCharsets.UTF_8);
  }

  @Test
  void validateExitsZeroWithASummaryLinePerPolicy() throws IOException {
    write("hash.key", "0123456789abcdef0123\n");
    Path good = write("shop.yaml", GOOD);
    Path other = write("other.yaml", "name: other\nversion: 1\norigin: dc1\n");
    int code = new PolicyValidate().run(new String[] {good.toString(), other.toString()}, print(out), print(err));
    assertThat(code).isZero();
    assertThat(out()).isEqualTo(good + ": OK policy 'shop' version 4: 3 rules (1 columns, 1 partition, 1 where), include [shop.*]\n"
        + other + ": OK policy 'other' version 1: 0 rules, include *.*, origin dc1\n");
    assertThat(err()).isEmpty();
  }

  @Test
  void validateExitsTwoWithEveryErrorAsFileLineRuleReason() throws IOException {
    Path bad = write("bad.yaml", "name: bad\nversion: 1\nrules:\n  - name: a\n    where: 'op =='\n  - name: a\n    partition: {key-hash: 0}\n");
    int code = new PolicyValidate().run(new String[] {bad.toString()}, print(out), print(err));
    assertThat(code).isEqualTo(2);
    assertThat(err()).contains(bad + ":5:12: rule 'a' (where): expression 'op ==': does not parse: ")
        .contains(bad + ":6:5: rule 'a': duplicate rule name 'a' (first at line 4)")
        .contains(bad + ":7:27: rule 'a' (partition): the partition count (key-hash) must be at least 1, not 0")
        .endsWith("3 errors in 1 file\n");
  }

  @Test
  void validateReportsAMissingKeyFile() throws IOException {
    Path good = write("shop.yaml", GOOD);
    assertThat(new PolicyValidate().run(new String[] {good.toString()}, print(out), print(err))).isEqualTo(2);
    assertThat(err()).contains(good + ":4:11: hash-key: key file " + dir.resolve("hash.key") + " does not exist");
  }

  @Test
  void validateWithoutFilesIsAUsageError() {
    assertThat(new PolicyValidate().run(new String[0], print(out), print(err))).isEqualTo(2);
    assertThat(err()).contains("Missing required parameter");
  }

  @Test
  void explainShowsAKeptRowWithItsTransformedColumnsAndPartition() throws IOException {
    write("hash.key", "0123456789abcdef0123");
    Path good = write("shop.yaml", GOOD);
    int code = new PolicyExplain().run(new String[] {good.toString(), "--table", "shop.orders",
        "--row", "{\"id\": 42, \"status\": \"PAID\", \"amount\": 12, \"email\": \"ann@example.com\", \"phone\": \"+49 1\", \"note\": \"n\"}"},
        print(out), print(err));
    assertThat(err()).isEmpty();
    assertThat(code).isZero();
    assertThat(out()).contains("policy 'shop' version 4 on shop.orders (INSERT)")
        .contains("  where rule 'paid' (row.status == 'PAID' && row.amount > 10): true")
        .contains("  columns rule 'pii': email: hashed (HMAC-SHA-256); phone: masked; note: dropped")
        .contains("  partition 6: rule 'spread', key hash mod 16")
        .contains("result: KEPT in partition 6")
        .contains("\"phone\":\"***\"")
        .doesNotContain("\"note\"")
        .doesNotContain("ann@example.com");
  }

  @Test
  void explainShowsWhyARowIsDropped() throws IOException {
    write("hash.key", "0123456789abcdef0123");
    Path good = write("shop.yaml", GOOD);
    int code = new PolicyExplain().run(new String[] {good.toString(), "--table", "shop.orders",
        "--row", "{\"id\": 1, \"status\": \"PAID\", \"amount\": null, \"email\": \"a\", \"phone\": \"b\", \"note\": \"c\"}",
        "--type", "amount=INT"},
        print(out), print(err));
    assertThat(code).isZero();
    assertThat(out()).contains("where rule 'paid' (row.status == 'PAID' && row.amount > 10): error, which counts as false")
        .contains("dropped by rule 'paid'")
        .endsWith("result: DROPPED\n");
  }

  @Test
  void explainRejectsBadInput() throws IOException {
    Path p = write("p.yaml", "name: p\nversion: 1\n");
    assertThat(new PolicyExplain(PolicyLoader.create()).run(new String[] {p.toString(), "--table", "orders", "--row", "{}"}, print(out), print(err)))
        .isEqualTo(2);
    assertThat(err()).contains("--table must be database.table");
    assertThat(new PolicyExplain().run(new String[] {p.toString(), "--table", "a.b", "--row", "{x"}, print(out), print(err))).isEqualTo(2);
    assertThat(err()).contains("--row is not JSON");
  }
}

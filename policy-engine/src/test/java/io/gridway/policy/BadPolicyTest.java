package io.gridway.policy;

import static io.gridway.policy.Fixtures.errors;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each kind of bad policy, with the message an operator gets: file, line, column, rule, reason. */
class BadPolicyTest {

  @Test
  void yamlSyntaxErrorNamesLineAndColumn() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: a
            where: "op == 'INSERT'
        """);
    assertThat(errors).singleElement().asString()
        .startsWith("bad.yaml:5:")
        .contains("YAML syntax error");
  }

  @Test
  void badIndentationIsASyntaxErrorWithItsPosition() {
    List<String> errors = errors("name: p\nversion: 1\n  include: [a.b]\n");
    assertThat(errors).singleElement().asString().matches("bad\\.yaml:3:\\d+: YAML syntax error: .*");
  }

  @Test
  void unknownRuleKeyIsRejectedWithTheKeyAndTheAllowedOnes() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: paid
            where: "op == 'INSERT'"
            filter: "x"
        """);
    assertThat(errors).containsExactly(
        "bad.yaml:6:5: rule 'paid': unknown key 'filter' in a rule (allowed: columns, conflict, description, name, partition, route, storage, tables, unfit-values, where)");
  }

  @Test
  void unknownUnfitValuesStrategyNamesTheChoices() {
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: u\n    unfit-values: skip\n")).singleElement().asString()
        .isEqualTo("bad.yaml:5:19: rule 'u' (unfit-values): unknown strategy 'skip' (park, map, fail)");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: u\n    unfit-values: {strategy: map}\n")).singleElement()
        .asString().startsWith("bad.yaml:5:19: rule 'u' (unfit-values): must be one of park, map, fail");
  }

  @Test
  void storageRuleValuesAreCheckedWhereTheyAreWritten() {
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: s\n    storage: {salt-buckets: 0}\n")).singleElement().asString()
        .startsWith("bad.yaml:5:").contains("rule 's' (storage)").contains("salt-buckets").contains("0");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: s\n    storage: {salt-buckets: 300}\n")).singleElement().asString()
        .contains("salt-buckets").contains("300");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: s\n    storage: {column-family: \"d'x\"}\n")).singleElement()
        .asString().contains("column-family must be 1-32 letters, digits or '_', not 'd'x'");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: s\n    storage: {}\n")).singleElement().asString()
        .contains("storage needs salt-buckets, column-family or both");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: s\n    storage: {buckets: 4}\n"))
        .anyMatch(e -> e.startsWith("bad.yaml:5:15: rule 's' (storage): unknown key 'buckets' in storage"));
  }

  @Test
  void unknownTopLevelKeyIsRejected() {
    assertThat(errors("name: p\nversion: 1\nincludes: [a.b]\n"))
        .singleElement().asString().startsWith("bad.yaml:3:1: unknown key 'includes' in a policy");
  }

  @Test
  void expressionThatDoesNotParseIsRejectedAtItsLine() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: broken
            where: "after.amount > "
        """);
    assertThat(errors).singleElement().asString()
        .startsWith("bad.yaml:5:12: rule 'broken' (where): expression 'after.amount > ': does not parse: ");
  }

  @Test
  void expressionOfTheWrongTypeIsRejected() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: sum
            where: "after.name + 1"
        """);
    assertThat(errors).containsExactly(
        "bad.yaml:5:12: rule 'sum' (where): expression 'after.name + 1': a where expression must be a bool, but this one is int");
  }

  @Test
  void expressionOfTheWrongTypeForTheTablesColumnsIsRejectedAgainstTheKnownSchema() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: cmp
            tables: [shop.orders]
            where: "after.status > 1"
        """);
    assertThat(errors).containsExactly("bad.yaml:6:12: rule 'cmp' (where): on shop.orders: type error: "
        + "found no matching overload for '_>_' applied to '(wrapper(string), int)' (at expression column 14)");
  }

  @Test
  void nonBooleanPredicateIsRejectedEvenWithoutASchema() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: not-a-test
            where: "op"
        """);
    assertThat(errors).singleElement().asString()
        .isEqualTo("bad.yaml:5:12: rule 'not-a-test' (where): expression 'op': a where expression must be a bool, but this one is string");
  }

  @Test
  void referenceToAColumnTheTableLacksNamesTheColumnAndTable() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: vip
            tables: [shop.orders]
            where: "after.vip == true"
        """);
    assertThat(errors).containsExactly(
        "bad.yaml:6:12: rule 'vip' (where): on shop.orders: column 'vip' is not in shop.orders (after.vip)");
  }

  @Test
  void columnsRuleNamingAMissingColumnIsRejectedAtTheColumn() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: pii
            tables: [shop.orders]
            columns:
              drop: [ssn]
        """);
    assertThat(errors).containsExactly("bad.yaml:7:14: rule 'pii' (columns): column 'ssn' is not in shop.orders");
  }

  @Test
  void partitionCountOfZeroIsRejected() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: spread
            partition: {key-hash: 0}
        """);
    assertThat(errors).containsExactly(
        "bad.yaml:5:27: rule 'spread' (partition): the partition count (key-hash) must be at least 1, not 0");
  }

  @Test
  void duplicateRuleNamesAreRejectedWithTheFirstOccurrence() {
    List<String> errors = errors("""
        name: p
        version: 1
        rules:
          - name: same
            where: "op == 'INSERT'"
          - name: same
            route: {database: copy}
        """);
    assertThat(errors).containsExactly("bad.yaml:6:5: rule 'same': duplicate rule name 'same' (first at line 4)");
  }

  @Test
  void everyErrorIsReportedNotOnlyTheFirst() {
    List<String> errors = errors("""
        name: p
        version: zero
        colour: blue
        rules:
          - name: a
            where: "op =="
          - name: b
            partition: {key-hash: 0}
          - name: a
            conflict: newest
        """);
    assertThat(errors).hasSize(6);
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("version must be an integer"));
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("unknown key 'colour'"));
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("must be at least 1, not 0"));
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("duplicate rule name 'a'"));
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("unknown conflict strategy 'newest'"));
    assertThat(errors).anySatisfy(e -> assertThat(e).contains("does not parse"));
  }

  @Test
  void missingNameAndVersionAreReported() {
    assertThat(errors("include: [shop.*]\n")).containsExactly(
        "bad.yaml:1:1: missing required key 'name'",
        "bad.yaml:1:1: missing required key 'version'");
  }

  @Test
  void aRuleDoesOneThing() {
    assertThat(errors("""
        name: p
        version: 1
        rules:
          - name: both
            where: "true"
            route: {table: x}
        """)).containsExactly("bad.yaml:4:5: rule 'both': a rule does one thing; this one has where and route (split it into rules)");
  }

  @Test
  void hashKeyMustNotBeInThePolicyText() {
    List<String> errors = errors("""
        name: p
        version: 1
        hash-key: {value: "s3cret-s3cret-s3cret"}
        """);
    assertThat(errors).anySatisfy(e -> assertThat(e)
        .startsWith("bad.yaml:3:12: hash-key: unknown key 'value' in hash-key (the key itself never appears in a policy: give env or file)"));
  }

  @Test
  void hashWithoutAnAvailableKeyIsRejected() {
    String yaml = """
        name: p
        version: 1
        hash-key: {env: NOT_SET_ANYWHERE}
        rules:
          - name: pii
            columns: {hash: [email]}
        """;
    assertThat(errors(Fixtures.loader().withEnvironment(Map.<String, String>of()::get), yaml))
        .containsExactly("bad.yaml:3:11: hash-key: environment variable NOT_SET_ANYWHERE is not set");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: pii\n    columns: {hash: [email]}\n"))
        .containsExactly("bad.yaml: hash-key: rules hash columns, so the policy needs a hash-key (env or file)");
  }

  @Test
  void shortHashKeyIsRejected() {
    String yaml = "name: p\nversion: 1\nhash-key: {env: K}\n";
    assertThat(errors(Fixtures.loader().withEnvironment(Map.of("K", "short")::get), yaml))
        .containsExactly("bad.yaml:3:11: hash-key: environment variable K holds 5 bytes; a hash key needs at least 16");
  }

  @Test
  void droppingAKeyColumnIsRejected() {
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: d\n    tables: [shop.orders]\n    columns: {drop: [id]}\n"))
        .containsExactly("bad.yaml:4:5: rule 'd' (columns): key column 'id' of shop.orders cannot be dropped: appliers need the key (hash it instead)");
  }

  @Test
  void shapeErrorsNameWhatWasExpected() {
    assertThat(errors("name: p\nversion: 1\ninclude: {a: b}\n"))
        .containsExactly("bad.yaml:3:10: include must be a list of strings; found a mapping");
    assertThat(errors("name: p\nversion: 1\ninclude: [orders]\n"))
        .containsExactly("bad.yaml:3:11: include: table pattern 'orders' must be database.table (use *.* for every table)");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: r\n    route: {table: '{schema}_x'}\n"))
        .containsExactly("bad.yaml:5:13: rule 'r' (route): table: unknown placeholder {schema} (only {database} and {table})");
    assertThat(errors("name: p\nversion: 1\nrules:\n  - name: c\n    tables: [shop.orders]\n    conflict: {strategy: newest-wins, column: changed_at}\n"))
        .containsExactly("bad.yaml:6:39: rule 'c' (conflict): newest-wins column 'changed_at' is not in shop.orders");
  }

  @Test
  void duplicateYamlKeysAreRejected() {
    assertThat(errors("name: p\nversion: 1\nversion: 2\n")).anySatisfy(e -> assertThat(e).startsWith("bad.yaml:3:1: duplicate key 'version' (first at line 2)"));
  }
}

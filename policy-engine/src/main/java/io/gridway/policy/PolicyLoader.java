package io.gridway.policy;

import io.gridway.core.schema.TableSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Loads policies: reads the YAML, validates it, compiles it. Every problem of a file is reported,
 * each with file, line, column, rule and reason, in one {@link PolicyException}.
 *
 * <p>Give it the table schemas known at load time ({@link #withSchemas}) and each rule is also
 * type-checked against every known table it applies to: a reference to a missing column or a
 * comparison of a string column with a number is then a load error rather than a run-time one.
 *
 * <p>Immutable: the {@code with} methods return a new loader. Thread-safe.
 */
public final class PolicyLoader {
  private final List<TableSchema> schemas;
  private final Function<String, String> environment;

  private PolicyLoader(List<TableSchema> schemas, Function<String, String> environment) {
    this.schemas = List.copyOf(schemas);
    this.environment = environment;
  }

  /** A loader that knows no schemas and reads hash keys from the process environment. */
  public static PolicyLoader create() {
    return new PolicyLoader(List.of(), System::getenv);
  }

  /**
   * The fetch policy of a relay without policy files (README: "by default a hash of the primary
   * key"): every table partitioned by primary-key hash mod {@code partitions} — a keyless table by
   * its name's hash, TRUNCATE and DDL to every partition, key moves split — and nothing filtered.
   */
  public static Policy keyHashDefault(int partitions) {
    if (partitions < 1 || partitions > 65536) {
      throw new IllegalArgumentException("partitions must be 1..65536, not " + partitions);
    }
    String text = "name: default-key-hash\nversion: 1\ndescription: primary-key hash over the source's partitions\n"
        + "rules:\n  - name: key-hash\n    partition: {key-hash: " + partitions + "}\n";
    try {
      return create().parse("(default: key hash over " + partitions + " partitions)", text);
    } catch (PolicyException e) {
      throw new IllegalStateException("the built-in default policy does not load: " + e.getMessage(), e);
    }
  }

  /** This loader, also checking rules against these table versions. */
  public PolicyLoader withSchemas(List<TableSchema> known) {
    List<TableSchema> all = new ArrayList<>(schemas);
    all.addAll(known);
    return new PolicyLoader(all, environment);
  }

  /** This loader, reading environment variables (for {@code hash-key: {env: …}}) from a function. */
  public PolicyLoader withEnvironment(Function<String, String> variables) {
    return new PolicyLoader(schemas, Objects.requireNonNull(variables, "variables"));
  }

  /** Loads one policy file. */
  public Policy load(Path file) throws PolicyException {
    Problems problems = new Problems(file.toString());
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
    } catch (CharacterCodingException e) {
      throw new PolicyException(List.of(new PolicyError(file.toString(), 0, 0, null, "not UTF-8 text")));
    } catch (IOException e) {
      throw new PolicyException(List.of(new PolicyError(file.toString(), 0, 0, null, "cannot read: " + e)));
    }
    Path dir = file.toAbsolutePath().getParent();
    return load(text, dir == null ? Path.of("") : dir, problems);
  }

  /**
   * Loads a policy from text; {@code fileName} names it in messages, and relative key files are
   * relative to the working directory.
   */
  public Policy parse(String fileName, String text) throws PolicyException {
    return load(text, Path.of("").toAbsolutePath(), new Problems(fileName));
  }

  /**
   * Loads several files, which must have distinct policy names. Problems of all of them are
   * reported together.
   */
  public List<Policy> loadAll(List<Path> files) throws PolicyException {
    List<Policy> policies = new ArrayList<>();
    List<PolicyError> errors = new ArrayList<>();
    Map<String, String> names = new HashMap<>();
    for (Path file : files) {
      try {
        Policy policy = load(file);
        String first = names.putIfAbsent(policy.name(), policy.file());
        if (first != null) {
          errors.add(new PolicyError(policy.file(), 0, 0, "name", "policy name '" + policy.name() + "' is also used by " + first));
        }
        policies.add(policy);
      } catch (PolicyException e) {
        errors.addAll(e.errors());
      }
    }
    if (!errors.isEmpty()) {
      throw new PolicyException(errors);
    }
    return policies;
  }

  private Policy load(String text, Path dir, Problems problems) throws PolicyException {
    YNode root = YamlReader.read(text, problems);
    PolicySpec spec = root == null ? null : SpecReader.read(root, problems);
    if (spec == null || !problems.isEmpty()) {
      throw new PolicyException(problems.errors());
    }
    Policy policy = PolicyCompiler.compile(spec, schemas, dir, environment, problems);
    if (policy == null || !problems.isEmpty()) {
      throw new PolicyException(problems.errors());
    }
    return policy;
  }
}

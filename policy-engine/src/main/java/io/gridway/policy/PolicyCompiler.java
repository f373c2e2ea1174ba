package io.gridway.policy;

import io.gridway.core.schema.TableSchema;
import java.nio.file.Path;
import java.util.Collection;
import java.util.function.Function;

/**
 * Turns a {@link PolicySpec} into a {@link Policy}: checks every rule against each known table version
 * the policy applies to (expressions were already checked without a schema by {@link RuleBodyReader}), resolves the hash key, and
 * compiles the plan of each known table so that the first events need not. Every problem goes to
 * the {@link Problems}; stateless otherwise.
 */
final class PolicyCompiler {
  private PolicyCompiler() {}

  /** The compiled policy, or null after reporting why not. */
  static Policy compile(PolicySpec spec, Collection<TableSchema> schemas, Path policyDir, Function<String, String> environment,
      Problems problems) {
    int before = problems.count();
    boolean hashes = spec.rules().stream().anyMatch(r -> r.body() instanceof RuleSpec.Columns c && !c.hash().isEmpty());
    HmacSha256 hmac = null;
    if (hashes && spec.hashKey() == null) {
      problems.add(Loc.UNKNOWN, "hash-key", "rules hash columns, so the policy needs a hash-key (env or file)");
    } else if (spec.hashKey() != null) {
      try {
        hmac = new HmacSha256(HashKeys.resolve(spec.hashKey(), policyDir, environment));
      } catch (IllegalArgumentException e) {
        problems.add(spec.hashKey().loc(), "hash-key", e.getMessage());
      }
    }
    if (problems.count() > before) {
      return null;
    }
    CompiledRules rules = new CompiledRules(spec, hmac);
    Policy policy = new Policy(rules);
    for (TableSchema schema : schemas) {
      try {
        policy.fetch().warm(schema);
        RuleException conflict = rules.checkConflictColumn(schema);
        if (conflict != null) {
          throw conflict;
        }
      } catch (RuleException e) {
        problems.add(e.loc(), e.rule().label(), e.getMessage());
      }
    }
    return problems.count() > before ? null : policy;
  }
}

package io.gridway.policy;

/**
 * A loaded policy cannot handle a table version first seen at run time: typically a DDL dropped a
 * column that a rule reads. Fatal for the caller: carrying on would filter or transform the table
 * in a way the policy does not say. The message names the policy, its version, the rule, the table
 * and the reason; the fix is a new policy version (or a hot reload of a corrected one).
 */
public final class PolicySchemaException extends RuntimeException {
  public PolicySchemaException(String message) {
    super(message);
  }
}

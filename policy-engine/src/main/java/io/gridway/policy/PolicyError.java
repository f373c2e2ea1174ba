package io.gridway.policy;

import java.util.Objects;

/**
 * One reason a policy was rejected, in the form operators read: {@code file:line:column: rule
 * 'name': reason}.
 *
 * @param file the policy file (or the name given to a policy read from a string)
 * @param line 1-based line, or 0 when the problem has no position (a missing key file, say)
 * @param column 1-based column, or 0 when unknown
 * @param rule the rule the problem is in ({@code rule 'pii'}, or a top-level key such as {@code
 *     version}), or null for problems of the file as a whole
 * @param reason what is wrong, and where it helps, what was expected
 */
public record PolicyError(String file, int line, int column, String rule, String reason) {
  public PolicyError {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(reason, "reason");
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(file);
    if (line > 0) {
      text.append(':').append(line);
      if (column > 0) {
        text.append(':').append(column);
      }
    }
    text.append(": ");
    if (rule != null) {
      text.append(rule).append(": ");
    }
    return text.append(reason).toString();
  }
}

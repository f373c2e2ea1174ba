package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code gridway demo --duration 6s}, in process, exactly as a user runs it: private MariaDB and PostgreSQL,
 * ZooKeeper, a Helix controller, a relay, two consumers in one group, the workload, the drain and the comparison.
 * Asserts the exit code, that the summary says source = target, that both sides hold rows, that throughput was
 * above zero and every written row change was applied.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class DemoIT {
  @Test
  void demoWithDurationEndsWithSourceEqualToTargetAndExitCode0() {
    Run run = Run.of("demo", "--duration", "6s", "--rate", "100");

    assertThat(run.code()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("Where to look:").contains("/health").contains("/metrics")
        .contains("PARTITIONS (consumer-1 | consumer-2)");
    assertThat(run.out()).containsPattern("result +source = target: 3 tables, [0-9,]+ rows identical");
    assertThat(run.out()).doesNotContain("DIFFERENT");
    long transactions = number(run.out(), "written +([0-9,]+) transactions");
    long written = number(run.out(), "transactions, ([0-9,]+) row changes");
    long applied = number(run.out(), "applied +([0-9,]+) row changes by 2 consumers");
    assertThat(transactions).isGreaterThan(100);
    assertThat(applied).isEqualTo(written);
    assertThat(number(run.out(), "\\(([0-9,]+)\\.[0-9] tx/s")).isPositive();
    assertThat(run.out()).containsPattern("customers +[1-9][0-9,]* +[1-9][0-9,]* +[0-9a-f]{16} +[0-9a-f]{16} +equal");
  }

  private static long number(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(regex + " in\n" + text).isTrue();
    return Long.parseLong(m.group(1).replace(",", ""));
  }
}

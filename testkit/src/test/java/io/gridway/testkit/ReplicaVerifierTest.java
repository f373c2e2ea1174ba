package io.gridway.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaVerifierTest {
  @Test
  void equalRowsInAnyOrderMatch() {
    assertThat(ReplicaVerifier.compare("t", "row", List.of("1|a", "2|b", "2|b"), List.of("2|b", "1|a", "2|b")))
        .isEmpty();
  }

  @Test
  void namesLostDuplicatedAndDifferentRows() {
    String problem = ReplicaVerifier.compare("audit", "append-only", List.of("1|a", "2|b", "3|c"),
        List.of("1|a", "1|a", "2|B"));
    assertThat(problem).startsWith("audit (append-only): source 3 rows, target 3")
        .contains("2 missing in the target (lost), first 2: [2|b, 3|c]")
        .contains("1 applied more often than in the source (duplicated), first 1: [1|a]")
        .contains("1 in the target only (different or extra), first 1: [2|B]");
  }

  @Test
  void showsOnlyTheFirstTenRows() {
    List<String> want = java.util.stream.IntStream.range(0, 50).mapToObj(i -> "r" + i).toList();
    assertThat(ReplicaVerifier.compare("t", "row", want, List.of())).contains("50 missing in the target (lost), first 10:");
  }

  @Test
  void orderFlagsAKeyWhosePositionGoesBack() {
    assertThat(ReplicaVerifier.ordered("audit", List.of("k|1", "j|5", "k|2", "k|2", "j|6"))).isEmpty();
    assertThat(ReplicaVerifier.ordered("audit", List.of("k|1", "k|3", "j|1", "k|2")))
        .contains("1 applied out of source commit order, first 1: [key k: 3 then 2]");
  }
}

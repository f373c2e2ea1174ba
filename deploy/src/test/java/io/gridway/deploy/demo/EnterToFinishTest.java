package io.gridway.deploy.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EnterToFinishTest {
  @Test
  void enterAsksToFinishOnlyOnceALineArrives() throws IOException {
    PipedOutputStream keyboard = new PipedOutputStream();
    EnterToFinish enter = EnterToFinish.watch(new PipedInputStream(keyboard));
    assertThat(enter.asked()).isFalse();

    keyboard.write('\n');
    keyboard.flush();

    await().atMost(Duration.ofSeconds(10)).until(enter::asked);
  }

  @Test
  void aClosedInputNeverAsks() {
    EnterToFinish enter = new EnterToFinish();

    enter.readFrom(new ByteArrayInputStream(new byte[0]));

    assertThat(enter.asked()).isFalse();
  }
}

package io.gridway.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gridway.core.wire.ErrorFrame;
import io.gridway.core.wire.WireFormatException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameStreamTest {
  private final List<WindowData> received = new ArrayList<>();
  private final List<ErrorFrame> errors = new ArrayList<>();
  private boolean full;

  private FrameStream stream(long since) {
    return new FrameStream(0, since, new SchemaCache(), new FrameStream.Sink() {
      @Override
      public boolean offer(WindowData window) {
        if (full && !window.isHeartbeat()) {
          return false;
        }
        received.add(window);
        return true;
      }

      @Override
      public void error(ErrorFrame error) {
        errors.add(error);
      }
    }, UnpooledByteBufAllocator.DEFAULT);
  }

  private static byte[] threeWindows() {
    return new TestFrames().schema()
        .window(TestFrames.transaction(10, 0, 1, 2, 3))
        .heartbeat(15)
        .window(TestFrames.transaction(20, 0, 4))
        .window(TestFrames.transaction(30, 0, 5, 6))
        .bytes();
  }

  @Test
  void windowsAreHandedOnWholeWhateverTheChunking() {
    byte[] body = threeWindows();
    for (int chunk = 1; chunk <= body.length; chunk += chunk < 40 ? 1 : 37) {
      received.clear();
      FrameStream stream = stream(0);
      for (int at = 0; at < body.length; at += chunk) {
        ByteBuf piece = Unpooled.wrappedBuffer(Arrays.copyOfRange(body, at, Math.min(body.length, at + chunk)));
        assertThat(stream.feed(piece)).isTrue();
        for (WindowData w : received) {
          assertThat(w.isHeartbeat() || w.eventCount() == w.eventCount()).isTrue();
        }
      }
      stream.endOfResponse();
      assertThat(received).extracting(WindowData::scn).as("chunk %d", chunk).containsExactly(10L, 15L, 20L, 30L);
      assertThat(received.get(0).eventCount()).isEqualTo(3);
      assertThat(Window.whole(received.get(3)).event(1).after().get(1)).isEqualTo("value-6-30");
      assertThat(stream.lastScn()).isEqualTo(30);
    }
  }

  @Test
  void aWindowCutOffBeforeItsEndIsNeverHandedOn() {
    byte[] body = threeWindows();
    FrameStream stream = stream(0);
    byte[] cut = Arrays.copyOf(body, body.length - 30); // inside window 30's END_OF_WINDOW
    stream.feed(Unpooled.wrappedBuffer(cut));
    assertThat(received).extracting(WindowData::scn).containsExactly(10L, 15L, 20L);
    assertThatThrownBy(stream::endOfResponse).isInstanceOf(WireFormatException.class)
        .hasMessageContaining("TRUNCATED");
    assertThat(received).extracting(WindowData::scn).containsExactly(10L, 15L, 20L);
    assertThat(stream.lastScn()).isEqualTo(20);
  }

  @Test
  void garbageIsADecodeErrorAndNothingPartialEscapes() {
    byte[] body = threeWindows();
    byte[] corrupt = body.clone();
    corrupt[corrupt.length - 50] ^= 0x40; // a bit flip inside window 30
    FrameStream stream = stream(0);
    assertThatThrownBy(() -> stream.feed(Unpooled.wrappedBuffer(corrupt))).isInstanceOf(WireFormatException.class);
    assertThat(received).extracting(WindowData::scn).doesNotContain(30L);

    FrameStream other = stream(0);
    assertThatThrownBy(() -> other.feed(Unpooled.wrappedBuffer("HTTP/1.1 200 OK garbage".getBytes())))
        .isInstanceOf(WireFormatException.class).hasMessageContaining("BAD_MAGIC");
  }

  @Test
  void windowsAtOrBelowTheReceivedPositionAreAProtocolError() {
    FrameStream stream = stream(20);
    assertThatThrownBy(() -> stream.feed(Unpooled.wrappedBuffer(threeWindows())))
        .isInstanceOf(WireFormatException.class).hasMessageContaining("not above 20");
    assertThat(received).isEmpty();
  }

  @Test
  void oldHeartbeatsAreIgnored() {
    FrameStream stream = stream(100);
    stream.feed(Unpooled.wrappedBuffer(new TestFrames().heartbeat(50).heartbeat(120).bytes()));
    assertThat(received).extracting(WindowData::scn).containsExactly(120L);
  }

  @Test
  void aFullSinkPausesTheStreamUntilResumed() {
    byte[] body = threeWindows();
    FrameStream stream = stream(0);
    full = true;
    assertThat(stream.feed(Unpooled.wrappedBuffer(body))).isFalse();
    assertThat(stream.isPaused()).isTrue();
    assertThat(received).isEmpty();
    assertThat(stream.resume()).isFalse();
    full = false;
    assertThat(stream.resume()).isTrue();
    stream.endOfResponse();
    assertThat(received).extracting(WindowData::scn).containsExactly(10L, 15L, 20L, 30L);
  }

  @Test
  void anErrorFrameReachesTheSink() {
    FrameStream stream = stream(0);
    stream.feed(Unpooled.wrappedBuffer(new TestFrames().error(410, "scn-evicted", 77).bytes()));
    assertThat(errors).singleElement().satisfies(e -> {
      assertThat(e.status()).isEqualTo(410);
      assertThat(RelayProblem.of(e).oldestScn()).isEqualTo(77);
      assertThat(RelayProblem.of(e).kind()).isEqualTo(RelayProblem.Kind.EVICTED);
    });
  }

  @Test
  void tableWideEventsAreFoundWithoutDecoding() {
    FrameStream stream = stream(0);
    stream.feed(Unpooled.wrappedBuffer(new TestFrames().schema().window(TestFrames.transaction(1, 0, 1))
        .window(TestFrames.truncate(2, 0)).bytes()));
    assertThat(Dispatcher.hasTableWideEvent(received.get(0))).isFalse();
    assertThat(Dispatcher.hasTableWideEvent(received.get(1))).isTrue();
  }
}

package io.gridway.relay.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.FrameType;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One publisher and 16 HTTP readers (long-poll and stream, four partition filters, two of them
 * deliberately slow) over a buffer of three 6 MiB chunks that wraps several times, with windows from
 * one event to 5 MB. Fast readers must see every window meant for them exactly once, in order and
 * whole; slow readers must see a correct prefix and then a 410 (or ERROR scn-evicted), nothing else.
 * A slow reader stops after its first window or response until everything is published: slowed by a
 * fixed pause instead, it kept up on a loaded machine, where the fast readers that pace the publisher
 * were as slow as it, and was never evicted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentReadersTest {
  private static final int WINDOWS = 240;
  private static final int PARTITIONS = 4;
  private static final List<Set<Integer>> FILTERS = List.of(Set.of(), Set.of(0), Set.of(1, 2), Set.of(3));

  private final Map<Long, List<long[]>> published = new ConcurrentHashMap<>();
  private final Object progressChanged = new Object();
  private final CountDownLatch allPublished = new CountDownLatch(1);

  /** What one reader saw. */
  private final class Reader {
    final int number;
    final boolean stream;
    final boolean slow;
    final Set<Integer> partitions;
    final List<Long> windows = new ArrayList<>();
    final Map<Long, List<long[]>> events = new ConcurrentHashMap<>();
    final AtomicLong progress = new AtomicLong();
    volatile int evictedStatus;
    volatile long evictedOldest = -1;
    volatile String failure;

    Reader(int number) {
      this.number = number;
      this.stream = number % 2 == 1;
      this.slow = number >= 14;
      this.partitions = FILTERS.get((number / 2) % FILTERS.size());
    }

    String query(long since) {
      String filter = partitions.isEmpty() ? "" : "&partitions=" + partitions.stream().map(String::valueOf).collect(Collectors.joining(","));
      return "/v1/sources/src/events?since=" + since + filter + "&waitMs=20&maxBytes=" + (slow ? 64 * 1024 : 8 << 20)
          + (stream ? "&stream=true" : "");
    }

    void advance(long scn) {
      if (scn > progress.get()) {
        progress.set(scn);
        synchronized (progressChanged) {
          progressChanged.notifyAll();
        }
      }
    }

    /** Reads frames, assembling windows; returns false after an ERROR frame. */
    boolean consume(FrameInput in, boolean untilEnd) throws Exception {
      List<long[]> current = new ArrayList<>();
      long currentScn = -1;
      FrameType type;
      while ((type = in.next()) != null) {
        switch (type) {
          case SCHEMA -> assertThat(current).as("schema inside a window").isEmpty();
          case EVENT -> {
            var event = in.reader().event();
            assertThat(currentScn == -1 || currentScn == event.scn()).isTrue();
            currentScn = event.scn();
            assertThat(partitions.isEmpty() || partitions.contains(event.partition())).isTrue();
            current.add(new long[] {event.after().getLong(0), event.partition()});
          }
          case END_OF_WINDOW -> {
            long scn = in.reader().endOfWindow().scn().value();
            assertThat(current).as("empty window " + scn).isNotEmpty();
            assertThat(currentScn).isEqualTo(scn);
            assertThat(windows.isEmpty() || windows.get(windows.size() - 1) < scn).as("order").isTrue();
            windows.add(scn);
            events.put(scn, current);
            current = new ArrayList<>();
            currentScn = -1;
            advance(scn);
            if (slow) {
              fallBehind();
            }
          }
          case HEARTBEAT -> {
            assertThat(current).as("heartbeat inside a window").isEmpty();
            advance(in.reader().heartbeat().scn().value());
          }
          case ERROR -> {
            assertThat(current).as("error inside a window").isEmpty();
            evictedStatus = in.reader().error().status();
            assertThat(in.reader().error().type()).isEqualTo("scn-evicted");
            evictedOldest = in.reader().error().scn();
            assertThat(in.next()).as("nothing after ERROR").isNull();
            return false;
          }
        }
        if (!untilEnd && progress.get() >= WINDOWS) {
          return true;
        }
      }
      assertThat(current).as("a response ended inside a window").isEmpty();
      return true;
    }

    /** A consumer that stalls, on purpose, until the buffer has wrapped past it. */
    void fallBehind() throws InterruptedException {
      assertThat(allPublished.await(100, TimeUnit.SECONDS)).as("publisher finished").isTrue();
    }

    void run() {
      try {
        if (stream) {
          HttpResponse<InputStream> response = RelayHarness.CLIENT.send(HttpRequest.newBuilder(relay.uri(query(0))).build(),
              HttpResponse.BodyHandlers.ofInputStream());
          assertThat(response.statusCode()).isEqualTo(200);
          try (InputStream body = response.body()) {
            consume(new FrameInput(body), false);
          }
          return;
        }
        while (progress.get() < WINDOWS) {
          HttpResponse<byte[]> response = relay.get(query(progress.get()));
          if (response.statusCode() == 410) {
            evictedStatus = 410;
            evictedOldest = Long.parseLong(Responses.JSON.readTree(response.body()).get("oldestScn").asText());
            return;
          }
          assertThat(response.statusCode()).isEqualTo(200);
          consume(new FrameInput(new ByteArrayInputStream(response.body())), true);
          if (slow) {
            fallBehind();
          }
        }
      } catch (Throwable e) {
        failure = "reader " + number + ": " + e;
        progress.set(Long.MAX_VALUE); // never hold the publisher up
        synchronized (progressChanged) {
          progressChanged.notifyAll();
        }
      }
    }
  }

  private RelayHarness relay;

  @Test
  void sixteenReadersOverAWrappingBufferSeeEveryWindowOnceInOrderOrA410() throws Exception {
    relay = new RelayHarness(18 << 20, 6 << 20, HttpConfig.defaults(), PARTITIONS);
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Reader> readers = new ArrayList<>();
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        Reader reader = new Reader(i);
        readers.add(reader);
        running.add(pool.submit(reader::run));
      }
      SplittableRandom random = new SplittableRandom(42);
      long publishedBytes = 0;
      for (long scn = 1; scn <= WINDOWS; scn++) {
        awaitFastReaders(readers, scn - 3);
        Transaction t = window(scn, random);
        relay.publish(t);
        published.put(scn, t.events().stream().map(e -> new long[] {id(e), e.partition()}).toList());
        publishedBytes += t.events().size() * 60L + t.events().stream().mapToLong(e -> ((String) e.after().get(1)).length()).sum();
      }
      allPublished.countDown();
      for (Future<?> f : running) {
        f.get(60, TimeUnit.SECONDS);
      }
      assertThat(publishedBytes).as("the buffer wrapped several times").isGreaterThan(5L * (18 << 20));
      assertThat(relay.buffer.windowsEvicted()).isGreaterThan(WINDOWS / 2);
      for (Reader reader : readers) {
        verify(reader);
      }
      assertThat(readers.stream().filter(r -> r.slow).allMatch(r -> r.evictedStatus == 410)).isTrue();
    } finally {
      pool.shutdownNow();
      relay.close();
    }
  }

  private static long id(ChangeEvent e) {
    return (Long) e.after().get(0);
  }

  /** A window of log-uniform size, 100 bytes to 5 MB, of events of log-uniform payload size. */
  private static Transaction window(long scn, SplittableRandom random) {
    double bytes = Math.exp(Math.log(100) + random.nextDouble() * (Math.log(5_000_000) - Math.log(100)));
    int payload = (int) Math.min(bytes, Math.exp(Math.log(50) + random.nextDouble() * (Math.log(30_000) - Math.log(50))));
    int count = (int) Math.max(1, Math.min(5_000_000 / (payload + 60), bytes / (payload + 60)));
    return TestData.random(scn, count, payload, PARTITIONS, random);
  }

  private void awaitFastReaders(List<Reader> readers, long scn) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    synchronized (progressChanged) {
      while (readers.stream().anyMatch(r -> !r.slow && r.progress.get() < scn)) {
        assertThat(System.nanoTime()).as("fast readers stuck: " + readers.stream()
            .map(r -> r.number + "@" + r.progress.get()).toList()).isLessThan(deadline);
        progressChanged.wait(1000);
      }
    }
  }

  private void verify(Reader reader) {
    assertThat(reader.failure).as("reader %d failed", reader.number).isNull();
    List<Long> expected = new ArrayList<>();
    for (long scn = 1; scn <= WINDOWS; scn++) {
      if (!filtered(reader, scn).isEmpty()) {
        expected.add(scn);
      }
    }
    if (!reader.slow) {
      assertThat(reader.evictedStatus).as("fast reader %d evicted", reader.number).isZero();
      assertThat(reader.windows).as("reader %d windows", reader.number).isEqualTo(expected);
    } else {
      assertThat(reader.evictedStatus).as("slow reader %d", reader.number).isEqualTo(410);
      assertThat(reader.windows).as("slow reader %d saw a prefix", reader.number).isEqualTo(expected.subList(0, reader.windows.size()));
      assertThat(reader.evictedOldest).isGreaterThan(reader.windows.isEmpty() ? 0 : reader.windows.get(reader.windows.size() - 1));
    }
    for (long scn : reader.windows) {
      List<long[]> want = filtered(reader, scn);
      List<long[]> got = reader.events.get(scn);
      assertThat(got).hasSameSizeAs(want);
      for (int i = 0; i < want.size(); i++) {
        assertThat(got.get(i)).containsExactly(want.get(i));
      }
    }
  }

  private List<long[]> filtered(Reader reader, long scn) {
    return published.get(scn).stream().filter(e -> reader.partitions.isEmpty() || reader.partitions.contains((int) e[1])).toList();
  }
}

package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import io.gridway.core.fetch.FetcherException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replication connection: a {@link BinaryLogClient} registered as a replica under the configured
 * server id, reading from a transaction boundary and feeding each event to the assembler, on the calling
 * thread until the connection ends. The client's own keep-alive thread is off: reconnecting (from the last
 * boundary, never from the client's idea of the position) is the fetcher's job. A socket read timeout of
 * three heartbeat intervals notices a silently dead connection.
 *
 * <p>The client skips an event whose listener throws; here every failure is caught, recorded and ends
 * the session by closing its socket, and nothing after it is processed. {@link #abort} may be called from
 * any thread; the rest belongs to the thread that called {@link #run}.
 */
final class BinlogSession {
  private static final Logger LOG = LoggerFactory.getLogger(BinlogSession.class);

  private final MysqlFetcherConfig config;
  private final Secret password;
  private final BinlogEventDeserializer deserializer;
  private final TransactionAssembler assembler;
  private final Runnable onConnected;
  private final AtomicBoolean aborted = new AtomicBoolean();
  private volatile Socket socket;
  private volatile boolean stopRequested;
  private volatile FetcherException fatal;
  private volatile Throwable failure;

  BinlogSession(MysqlFetcherConfig config, Secret password, BinlogEventDeserializer deserializer,
      TransactionAssembler assembler, Runnable onConnected) {
    this.config = config;
    this.password = password;
    this.deserializer = deserializer;
    this.assembler = assembler;
    this.onConnected = onConnected;
  }

  /** Connects and reads until the connection ends; classifies server errors with {@code facts}. */
  SessionOutcome run(ResumePoint from, ServerFacts facts) {
    BinaryLogClient client = new BinaryLogClient(config.host(), config.port(), config.user(), password.reveal());
    try {
      // made per connection: a CA file replaced on disk is read at the next reconnect
      SourceTlsContext tls = new SourceTlsContext(config.tls(), config.host(), config.port());
      client.setSSLMode(tls.sslMode());
      client.setSslSocketFactory(tls.socketFactory());
    } catch (FetcherException e) {
      return new SessionOutcome(e, null, false);
    }
    client.setServerId(config.serverId());
    client.setKeepAlive(false);
    client.setBlocking(true);
    client.setConnectTimeout(config.connectTimeout().toMillis());
    client.setHeartbeatInterval(config.heartbeatInterval().toMillis());
    client.setEventDeserializer(deserializer);
    int readTimeout = config.heartbeatInterval().isZero() ? 0
        : (int) Math.min(Integer.MAX_VALUE, Math.max(2000, config.heartbeatInterval().toMillis() * 3));
    client.setSocketFactory(() -> {
      Socket s = new Socket();
      s.setSoTimeout(readTimeout);
      s.setTcpNoDelay(true);
      s.setReceiveBufferSize(1 << 20);
      socket = s;
      if (stopRequested) {
        closeQuietly(s);
      }
      return s;
    });
    if (from.byGtid()) {
      client.setGtidSet(from.gtidSet());
    } else {
      client.setBinlogFilename(from.file());
      client.setBinlogPosition(from.offset());
    }
    client.registerEventListener(this::onEvent);
    client.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
      @Override
      public void onConnect(BinaryLogClient c) {
        onConnected.run();
      }

      @Override
      public void onCommunicationFailure(BinaryLogClient c, Exception error) {
        if (!aborted.get()) {
          failure = error;
        }
      }

      @Override
      public void onEventDeserializationFailure(BinaryLogClient c, Exception error) {
        fail(new FetcherException("cannot decode a binlog event: " + error.getMessage(), error));
      }
    });
    assembler.startSession();
    try {
      client.connect();
    } catch (IOException | IllegalStateException e) {
      if (!aborted.get()) {
        failure = e;
      }
    } finally {
      abort();
    }
    if (stopRequested) {
      return new SessionOutcome(null, null, true);
    }
    if (fatal != null) {
      return new SessionOutcome(fatal, null, false);
    }
    Throwable error = failure;
    FetcherException operatorError = error == null ? null : Failures.fatal(error, facts, config.user(), config.serverId(), from);
    if (operatorError != null) {
      return new SessionOutcome(operatorError, null, false);
    }
    return new SessionOutcome(null, error != null ? error : new SocketException("the server closed the connection"), false);
  }

  private void onEvent(Event event) {
    if (aborted.get()) {
      return; // events still buffered after an abort are never processed
    }
    try {
      assembler.onEvent(event);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
    } catch (FetcherException e) {
      fail(e);
    } catch (TransientFailure | UncheckedIOException e) {
      failure = e;
      abort();
    } catch (RuntimeException e) {
      fail(new FetcherException("the fetcher failed on the event at " + event.getHeader() + ": " + e, e));
    }
  }

  private void fail(FetcherException error) {
    if (fatal == null) {
      fatal = error;
    }
    abort();
  }

  /** Ends the session for good: the fetcher is closing. Any thread. */
  void stop() {
    stopRequested = true;
    abort();
  }

  /** Closes the connection; the reading thread then leaves {@link #run}. Any thread; idempotent. */
  void abort() {
    aborted.set(true);
    deserializer.stop(); // what is still buffered is never processed: do not decode it either
    Socket s = socket;
    if (s != null) {
      closeQuietly(s);
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      LOG.debug("closing the replication socket", e);
    }
  }
}

package io.gridway.fetcher.goldengate;

import io.gridway.core.fetch.FetchBackoff;
import io.gridway.core.event.SourcePosition;
import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherException;
import io.gridway.core.fetch.FetcherStatus;
import io.gridway.core.fetch.TransactionSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tails a directory of GoldenGate's rolling output files (prefix + sequence number) in one of two documented
 * formats, Classic Extract's FORMATXML or the GoldenGate for Big Data JSON operation format, and delivers whole
 * transactions, in file order, to a {@link TransactionSink}.
 *
 * <p><b>SCNs.</b> A window's SCN is the CSN the records carry in the CSN token (default {@code TK-CSN}); records
 * sharing a CSN are one window. Without a CSN token, the SCN is {@code (file sequence << 32) | offset just past
 * the transaction's last record} ({@code Scn.ofTrail}). Either way every replica reading the same files
 * assigns the same SCNs. See {@link WindowAssembler}.
 *
 * <p><b>Positions.</b> A window's position is {@code SourcePosition.Trail(file sequence, offset just past its last
 * record)}; {@link #start} resumes there, and without a position begins at the configured {@code firstSequence}
 * or the lowest file present.
 *
 * <p><b>Tailing.</b> A record whose end has not been written yet is waited for, never parsed. At the end of a
 * file the fetcher rolls over to the next sequence once that file exists (a rolled file ending in an incomplete
 * record is an error); otherwise it polls with backoff (5 ms doubling up to {@code pollInterval}).
 *
 * <p><b>Errors.</b> A malformed record, a table without a schema file, a value its column cannot take, a CSN
 * regression (unless skipped), a window above maxTransactionBytes: all go to {@link TransactionSink#failed}
 * naming the file, offset, line and reason, and the fetcher stops (state FAILED). Nothing is skipped silently.
 *
 * <p>Thread-safety: {@link #start}, {@link #status} and {@link #close} may be called from any thread. The fetcher
 * reads on one thread of its own, which is also the thread that calls the sink.
 */
public final class GoldenGateFetcher implements Fetcher {
  private static final Logger LOG = LoggerFactory.getLogger(GoldenGateFetcher.class);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  private final GoldenGateConfig config;
  private final String source;
  private final Clock clock;
  private final Sleeper sleeper;
  private final TrailFiles files;
  private final Object lock = new Object();
  private Thread thread; // guarded by lock
  private volatile boolean closing;
  private volatile WindowAssembler assembler;
  private volatile FetcherStatus status = new FetcherStatus(FetcherStatus.State.STOPPED, null, "not started");

  /**
   * A fetcher for the configured directory.
   *
   * @param source the source id every schema and event carries
   * @param clock the relay's clock: times the status's idle detail
   */
  public GoldenGateFetcher(GoldenGateConfig config, String source, Clock clock) {
    this(config, source, clock, Sleeper.SYSTEM);
  }

  GoldenGateFetcher(GoldenGateConfig config, String source, Clock clock, Sleeper sleeper) {
    this.config = Objects.requireNonNull(config, "config");
    this.source = Objects.requireNonNull(source, "source");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = sleeper;
    this.files = TrailFiles.of(config);
  }

  @Override
  public void start(SourcePosition resumeAfter, TransactionSink sink) {
    Objects.requireNonNull(sink, "sink");
    if (resumeAfter != null && !(resumeAfter instanceof SourcePosition.Trail)) {
      throw new IllegalArgumentException("a GoldenGate fetcher resumes from a trail position, not " + resumeAfter);
    }
    SourcePosition.Trail resume = (SourcePosition.Trail) resumeAfter;
    synchronized (lock) {
      if (thread != null) {
        throw new IllegalStateException("fetcher " + source + " was already started");
      }
      status = new FetcherStatus(FetcherStatus.State.STARTING, resume, "opening " + files.directory());
      thread = new Thread(() -> run(resume, sink), "gridway-goldengate-" + source);
      thread.setDaemon(true);
      thread.start();
    }
  }

  @Override
  public FetcherStatus status() {
    FetcherStatus current = status;
    WindowAssembler a = assembler;
    SourcePosition.Trail delivered = a == null ? null : a.lastDelivered();
    return delivered == null ? current : new FetcherStatus(current.state(), delivered, current.detail());
  }

  @Override
  public void close() {
    Thread reader;
    synchronized (lock) {
      closing = true;
      reader = thread;
    }
    if (reader != null && reader != Thread.currentThread()) {
      try {
        reader.interrupt(); // wakes a poll sleep or a sink blocked on back-pressure
        reader.join(CLOSE_WAIT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (reader.isAlive()) {
        LOG.warn("Fetcher {} thread did not stop within {}", source, CLOSE_WAIT);
      }
    }
    if (status.state() != FetcherStatus.State.FAILED) {
      status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
    }
  }

  private SourcePosition.Trail delivered() {
    WindowAssembler a = assembler;
    return a == null ? null : a.lastDelivered();
  }

  private void run(SourcePosition.Trail resume, TransactionSink sink) {
    try {
      readUntilClosed(resume, sink);
      status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
      LOG.info("Fetcher {} stopped after {}", source, delivered());
    } catch (FetcherException e) {
      if (closing && e.getCause() instanceof java.nio.channels.ClosedByInterruptException) {
        status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
        return; // close() interrupted a read: FileChannel closes itself then, which is no failure
      }
      status = new FetcherStatus(FetcherStatus.State.FAILED, delivered(), e.getMessage());
      LOG.error("Fetcher {} stopped: {}", source, e.getMessage());
      sink.failed(e);
    } catch (InterruptedException e) {
      status = new FetcherStatus(FetcherStatus.State.STOPPED, delivered(), "closed");
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      FetcherException error = new FetcherException("fetcher " + source + " failed unexpectedly: " + e, e);
      status = new FetcherStatus(FetcherStatus.State.FAILED, delivered(), error.getMessage());
      LOG.error("Fetcher {} failed", source, e);
      sink.failed(error);
    }
  }

  private void readUntilClosed(SourcePosition.Trail resume, TransactionSink sink) throws InterruptedException {
    SchemaDirectory schemas = new SchemaDirectory(Path.of(config.schemaDirectory()), source);
    UnitParser parser = UnitParser.of(config, schemas);
    FetchBackoff backoff = new FetchBackoff(Duration.ofMillis(5), config.pollInterval());
    long sequence = resume != null ? resume.sequence() : firstSequence(backoff);
    long offset = resume != null ? resume.rba() : 0;
    if (sequence < 0) {
      return; // closed while waiting for the first file
    }
    WindowAssembler windows = new WindowAssembler(sink, source, config.maxTransactionBytes().bytes(), config.skipRegressions(),
        new SourcePosition.Trail(sequence, offset), resume);
    assembler = windows;
    LOG.info("Fetcher {} reads {} from {} at offset {}", source, files.directory(), files.name(sequence), offset);
    while (!closing) {
      RecordReader reader = open(sequence, offset, backoff);
      if (reader == null) {
        return;
      }
      try (reader) {
        if (!tail(reader, sequence, parser, windows, backoff)) {
          return;
        }
      } catch (IOException e) {
        throw new FetcherException("fetcher " + source + ": cannot read " + reader.file() + ": " + e.getMessage(), e);
      }
      LOG.info("Fetcher {} rolls over from {} to {}", source, files.name(sequence), files.name(sequence + 1));
      sequence++;
      offset = 0;
    }
  }

  /** Reads one file to its end and past it until the next file exists; false when closed. */
  private boolean tail(RecordReader reader, long sequence, UnitParser parser, WindowAssembler windows, FetchBackoff backoff)
      throws IOException, InterruptedException {
    Instant idleSince = null;
    while (!closing) {
      try {
        if (reader.next()) {
          ChangeUnit unit = parser.parse(reader.buffer(), reader.recordStart(), reader.recordEnd());
          long end = reader.offset();
          if (end > 0xFFFF_FFFFL) {
            throw new MalformedRecordException("the file is longer than 4 GiB, which a trail position cannot address;"
                + " roll files at a smaller size");
          }
          windows.accept(unit, sequence, end);
          continue;
        }
        if (reader.fill() > 0) {
          backoff.reset();
          idleSince = null;
          continue;
        }
        if (files.exists(sequence + 1)) {
          if (reader.fill() > 0) { // the writer may have added its last bytes before rolling
            continue;
          }
          if (reader.hasPartialRecord()) {
            reader.next(); // a malformed beginning reports itself here
            reader.pointAtRest();
            throw new MalformedRecordException("the file ends in an incomplete record, and the writer has moved on to "
                + files.name(sequence + 1));
          }
          return true;
        }
      } catch (MalformedRecordException e) {
        throw new FetcherException("fetcher " + source + ": malformed record in " + reader.file() + " at offset "
            + reader.recordOffset() + " (line " + reader.recordLine() + "): " + e.getMessage(), e);
      }
      if (idleSince == null) {
        idleSince = clock.instant();
        windows.idle(sequence, reader.offset(), idleSince.getEpochSecond() * 1_000_000L + idleSince.getNano() / 1000);
        status = new FetcherStatus(FetcherStatus.State.RUNNING, delivered(), "reading " + reader.file()
            + (windows.holdsRecords() ? "; the newest window waits for the next record" : "") + "; idle since " + idleSince);
      }
      sleeper.sleep(backoff.next());
    }
    return false;
  }

  /** Opens a file at an offset, waiting for it to appear; null when closed first. */
  private RecordReader open(long sequence, long offset, FetchBackoff backoff) throws InterruptedException {
    Path path = files.path(sequence);
    while (!closing) {
      try {
        if (Files.isRegularFile(path)) {
          long size = Files.size(path);
          if (offset > size) {
            throw new FetcherException("fetcher " + source + ": the position " + offset + " is past the end of " + path
                + " (" + size + " bytes): the file was replaced or truncated");
          }
          RecordReader reader = new RecordReader(path, offset, RecordScanner.of(config.trailFormat()), config.maxTransactionBytes().bytes());
          status = new FetcherStatus(FetcherStatus.State.RUNNING, delivered(), "reading " + path);
          backoff.reset();
          return reader;
        }
        long later = files.nextPresentAfter(sequence);
        if (later >= 0) {
          throw new FetcherException("fetcher " + source + ": " + path + " is missing but " + files.name(later)
              + " exists: the file was purged before it was read; restore it or reset the relay's position");
        }
      } catch (NoSuchFileException e) {
        continue; // removed between the check and the open: look again
      } catch (IOException e) {
        throw new FetcherException("fetcher " + source + ": cannot open " + path + ": " + e.getMessage(), e);
      }
      status = new FetcherStatus(FetcherStatus.State.RUNNING, delivered(), "waiting for " + path);
      sleeper.sleep(backoff.next());
    }
    return null;
  }

  /** The configured first sequence, or the lowest present (waiting for one to appear); -1 when closed first. */
  private long firstSequence(FetchBackoff backoff) throws InterruptedException {
    if (config.firstSequence() != null) {
      return config.firstSequence();
    }
    while (!closing) {
      try {
        long lowest = files.lowest();
        if (lowest >= 0) {
          return lowest;
        }
      } catch (IOException e) {
        throw new FetcherException("fetcher " + source + ": cannot list " + files.directory() + ": " + e.getMessage(), e);
      }
      status = new FetcherStatus(FetcherStatus.State.RUNNING, null, "waiting for a file " + files.pattern()
          + " in " + files.directory());
      sleeper.sleep(backoff.next());
    }
    return -1;
  }
}

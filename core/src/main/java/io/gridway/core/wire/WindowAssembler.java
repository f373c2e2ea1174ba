package io.gridway.core.wire;

import io.gridway.core.event.ChangeEvent;
import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Transaction;
import io.gridway.core.wire.WireFormatException.Reason;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups the frames of a response into windows, enforcing the ordering rules of §2: the events of
 * a window share its SCN and commit time and are closed by an END_OF_WINDOW with that SCN, windows
 * ascend (unsigned), and SCHEMA, HEARTBEAT and ERROR frames come only between windows. A window
 * that never closes is dropped. Not thread-safe.
 */
final class WindowAssembler {
  private final List<Transaction> transactions = new ArrayList<>();
  private final List<Heartbeat> heartbeats = new ArrayList<>();
  private final List<ErrorFrame> errors = new ArrayList<>();
  private final List<ChangeEvent> pending = new ArrayList<>();
  private long pendingScn;
  private long lastScn;
  private boolean any;

  void accept(FrameType type, FrameReader reader, int frameOffset) {
    if (type != FrameType.EVENT && type != FrameType.END_OF_WINDOW && !pending.isEmpty()) {
      throw violation(frameOffset, type + " frame inside window " + Long.toUnsignedString(pendingScn));
    }
    switch (type) {
      case EVENT -> event(reader.event(), frameOffset);
      case END_OF_WINDOW -> close(reader.endOfWindow(), frameOffset);
      case HEARTBEAT -> heartbeats.add(reader.heartbeat());
      case ERROR -> errors.add(reader.error());
      case SCHEMA -> {} // the reader keeps it
    }
  }

  private void event(EventView view, int frameOffset) {
    if (pending.isEmpty()) {
      if (any && Long.compareUnsigned(view.scn(), lastScn) <= 0) {
        throw violation(frameOffset, "window " + Long.toUnsignedString(view.scn()) + " does not follow window "
            + Long.toUnsignedString(lastScn));
      }
      pendingScn = view.scn();
    } else if (view.scn() != pendingScn) {
      throw violation(frameOffset, "event of SCN " + Long.toUnsignedString(view.scn()) + " inside window "
          + Long.toUnsignedString(pendingScn));
    }
    pending.add(view.toChangeEvent());
  }

  private void close(EndOfWindow end, int frameOffset) {
    if (pending.isEmpty()) {
      throw violation(frameOffset, "END_OF_WINDOW " + end.scn() + " closes no events");
    }
    if (end.scn().value() != pendingScn) {
      throw violation(frameOffset, "END_OF_WINDOW " + end.scn() + " closes window " + Long.toUnsignedString(pendingScn));
    }
    try {
      transactions.add(new Transaction(end.scn(), end.commitTimeMicros(), end.position(), end.gtid(), pending));
    } catch (IllegalArgumentException e) {
      throw new WireFormatException(Reason.MALFORMED, frameOffset, e.getMessage(), e);
    }
    pending.clear();
    lastScn = pendingScn;
    any = true;
  }

  FrameReader.Decoded result() {
    return new FrameReader.Decoded(transactions, heartbeats, errors);
  }

  private static WireFormatException violation(int frameOffset, String detail) {
    return new WireFormatException(Reason.MALFORMED, frameOffset, detail);
  }
}

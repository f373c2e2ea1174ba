package io.gridway.core.wire;

import io.gridway.core.event.Heartbeat;
import io.gridway.core.event.Scn;
import io.gridway.core.event.SourcePosition;
import java.nio.ByteBuffer;

/** The payloads of END_OF_WINDOW (§5), HEARTBEAT (§6) and ERROR (§7), both ways. Stateless. */
final class ControlCodec {
  private ControlCodec() {}

  static void writeEndOfWindow(EndOfWindow w, ByteBuffer out, Utf8.Encoder utf8) {
    out.putLong(w.scn().value()).putLong(w.commitTimeMicros());
    FieldWriter.name(utf8, out, w.gtid(), "GTID");
    SourcePosition position = w.position();
    if (position == null) {
      out.put((byte) WireFormat.POSITION_NONE);
    } else if (position instanceof SourcePosition.Binlog b) {
      out.put((byte) WireFormat.POSITION_BINLOG);
      FieldWriter.name(utf8, out, b.file(), "binlog file name");
      out.putLong(b.offset());
      FieldWriter.text(utf8, out, b.gtidSet(), "GTID set");
    } else if (position instanceof SourcePosition.Trail t) {
      out.put((byte) WireFormat.POSITION_TRAIL).putLong(t.sequence()).putLong(t.rba());
    } else if (position instanceof SourcePosition.Generated g) {
      out.put((byte) WireFormat.POSITION_GENERATED).putLong(g.sequence());
    } else {
      throw new IllegalArgumentException("no wire form for position " + position);
    }
  }

  static EndOfWindow readEndOfWindow(PayloadCursor in) {
    Scn scn = new Scn(in.i64("SCN"));
    long commitTime = in.i64("commit time");
    String gtid = in.name("GTID");
    int kind = in.u8("position kind");
    SourcePosition position = switch (kind) {
      case WireFormat.POSITION_NONE -> null;
      case WireFormat.POSITION_BINLOG -> new SourcePosition.Binlog(in.name("binlog file"), in.i64("binlog offset"), in.text("GTID set"));
      case WireFormat.POSITION_TRAIL -> new SourcePosition.Trail(in.i64("trail sequence"), in.i64("RBA"));
      case WireFormat.POSITION_GENERATED -> new SourcePosition.Generated(in.i64("sequence"));
      default -> throw in.malformed("unknown position kind " + kind);
    };
    in.expectEnd("END_OF_WINDOW");
    return new EndOfWindow(scn, commitTime, gtid, position);
  }

  static void writeHeartbeat(Heartbeat h, ByteBuffer out) {
    out.putLong(h.scn().value()).putLong(h.timeMicros());
  }

  static Heartbeat readHeartbeat(PayloadCursor in) {
    Heartbeat h = new Heartbeat(new Scn(in.i64("SCN")), in.i64("time"));
    in.expectEnd("HEARTBEAT");
    return h;
  }

  static void writeError(ErrorFrame e, ByteBuffer out, Utf8.Encoder utf8) {
    out.putShort((short) e.status());
    FieldWriter.name(utf8, out, e.type(), "error type");
    out.putLong(e.scn());
    FieldWriter.text(utf8, out, e.detail(), "error detail");
  }

  static ErrorFrame readError(PayloadCursor in) {
    int status = in.u16("status");
    String type = in.name("type");
    long scn = in.i64("SCN");
    String detail = in.text("detail");
    in.expectEnd("ERROR");
    return new ErrorFrame(status, type, scn, detail);
  }
}

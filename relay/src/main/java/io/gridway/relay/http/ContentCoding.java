package io.gridway.relay.http;

import com.github.luben.zstd.ZstdOutputStream;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;

/**
 * The content codings the relay can apply to frame responses, and the negotiation from a request's
 * {@code Accept-Encoding}. lz4 uses the LZ4 frame format (any {@code lz4} tool decodes it), zstd the
 * zstd frame format, gzip RFC 1952. Thread-safe (stateless).
 */
enum ContentCoding {
  IDENTITY("identity"),
  LZ4("lz4"),
  ZSTD("zstd"),
  GZIP("gzip");

  /** Server preference when a client accepts several with equal weight: cheapest CPU per byte first. */
  private static final ContentCoding[] PREFERENCE = {LZ4, ZSTD, GZIP};

  private final String token;

  ContentCoding(String token) {
    this.token = token;
  }

  String token() {
    return token;
  }

  /**
   * The coding to use for a request's {@code Accept-Encoding} (null or garbage: identity). The highest
   * q-value wins; ties go to the server's preference. Unknown tokens and malformed parts are ignored.
   */
  static ContentCoding negotiate(String acceptEncoding) {
    if (acceptEncoding == null || acceptEncoding.isBlank() || acceptEncoding.length() > 1024) {
      return IDENTITY;
    }
    double[] weights = new double[values().length];
    double star = -1;
    for (String part : acceptEncoding.split(",")) {
      String[] pieces = part.split(";", -1);
      String name = pieces[0].trim().toLowerCase(Locale.ROOT);
      double q = 1;
      for (int i = 1; i < pieces.length; i++) {
        String param = pieces[i].trim();
        if (param.startsWith("q=")) {
          try {
            q = Double.parseDouble(param.substring(2));
          } catch (NumberFormatException e) {
            q = 0;
          }
        }
      }
      if (!(q > 0 && q <= 1)) {
        q = q == 0 ? -2 : 0; // q=0 means "not acceptable"; junk means ignore
      }
      if (name.equals("*")) {
        star = q;
      }
      for (ContentCoding coding : values()) {
        if (coding.token.equals(name)) {
          weights[coding.ordinal()] = q;
        }
      }
    }
    ContentCoding best = IDENTITY;
    double bestWeight = 0;
    for (ContentCoding coding : PREFERENCE) {
      double w = weights[coding.ordinal()] != 0 ? weights[coding.ordinal()] : star;
      if (w > bestWeight) {
        best = coding;
        bestWeight = w;
      }
    }
    return best;
  }

  /** A fresh encoder for one response body. */
  BodyEncoder newEncoder(ByteBufAllocator alloc) {
    if (this == IDENTITY) {
      return BodyEncoder.IDENTITY;
    }
    return new CompressingBodyEncoder(alloc, sink -> {
      try {
        return switch (this) {
          case LZ4 -> new LZ4FrameOutputStream(sink, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB);
          case ZSTD -> new ZstdOutputStream(sink, 3);
          case GZIP -> new GZIPOutputStream(sink, 32 * 1024, true);
          case IDENTITY -> throw new AssertionError();
        };
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}

package io.gridway.core.schema;

/**
 * A source type that the binlog carries as another type family: MariaDB's UUID, INET4 and INET6 are fixed-size
 * binary strings in a table map (BINARY(16), BINARY(4), BINARY(16)) and their values are those bytes (UUID in its
 * text order, addresses in network order). A {@link Column} of such a type keeps its {@link ColumnType} and value
 * (so every consumer that does not know the declared type sees what it always saw), and names the declared type so
 * that a target with a native type (PostgreSQL {@code uuid}, {@code inet}) can use it. New types are only ever
 * appended: the wire code is the position.
 */
public enum DeclaredType {
  UUID(16),
  INET4(4),
  INET6(16);

  private static final DeclaredType[] BY_CODE = values();

  private final int length;

  DeclaredType(int length) {
    this.length = length;
  }

  /** The length of the BINARY column that carries it. */
  public int length() {
    return length;
  }

  /** The stable wire code (§3 of docs/wire-format.md): the position, from 1; 0 is "none". */
  public int code() {
    return ordinal() + 1;
  }

  /** The type of a wire code, or null when the code is unknown. */
  public static DeclaredType ofCode(int code) {
    return code >= 1 && code <= BY_CODE.length ? BY_CODE[code - 1] : null;
  }
}

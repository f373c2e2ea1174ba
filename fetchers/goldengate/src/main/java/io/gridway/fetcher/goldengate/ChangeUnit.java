package io.gridway.fetcher.goldengate;

import java.util.List;

/**
 * What one record yields: its operations (an XML transaction has many, a JSON line one, an XML before image
 * none until its after image arrives) and what it says about transaction boundaries.
 *
 * @param csn the commit sequence number from the CSN token, or -1 when the record has none
 * @param xid the transaction id from the XID token, or null
 * @param commitMicros the commit (operation) time in microseconds since the epoch, or 0 when the record has none
 * @param boundary whether the record ends its source transaction, as far as the record says
 * @param bytes the record's length in the file, counted against maxTransactionBytes
 */
record ChangeUnit(List<ParsedOp> ops, long csn, String xid, long commitMicros, Boundary boundary, int bytes) {

  /** What a record says about the end of its transaction. */
  enum Boundary {
    /** Nothing: the next record with another CSN or XID tells. */
    UNKNOWN,
    /** More operations of this transaction follow (a transaction indicator of begin or middle). */
    CONTINUES,
    /** The transaction ends with this record (an XML transaction element, an end or whole indicator). */
    ENDS
  }
}

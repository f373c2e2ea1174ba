package io.gridway.applier.jdbc;

/**
 * A UNIQUE (or other integrity) violation while another partition of the group is still before the change's SCN: under
 * key-hash partitioning a key move is a DELETE of the old key in one partition and an INSERT of the new key in another,
 * so the INSERT can meet the old row's secondary-key value until the other partition has applied the DELETE. Not a
 * conflict yet: the batch is retried like an unavailable target (for up to {@code retry.outage}) until that partition
 * has caught up; a violation that persists then is a real one and goes to the value policy.
 */
public final class PartitionBehindException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public PartitionBehindException(String message) {
    super(message);
  }
}

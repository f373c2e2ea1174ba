package io.gridway.core.checkpoint;

/**
 * A write carried an older generation than the partition's newest claim: another owner has taken the
 * partition over. Never retriable: the writer must stop the partition without applying anything more.
 */
public final class CheckpointFencedException extends CheckpointException {
  private static final long serialVersionUID = 1L;

  private final long writerGeneration;
  private final long currentGeneration;

  public CheckpointFencedException(String group, int partition, long writerGeneration, long currentGeneration) {
    super("checkpoint of " + group + "/" + partition + " fenced: writer generation " + writerGeneration
        + " is older than the current owner's " + currentGeneration);
    this.writerGeneration = writerGeneration;
    this.currentGeneration = currentGeneration;
  }

  public long writerGeneration() {
    return writerGeneration;
  }

  public long currentGeneration() {
    return currentGeneration;
  }
}

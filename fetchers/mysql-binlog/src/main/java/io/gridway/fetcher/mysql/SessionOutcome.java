package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.FetcherException;

/**
 * How one replication connection ended. Exactly one reason: an operator's error, a failure worth a
 * reconnect, or a stop that was asked for. Immutable.
 *
 * @param fatal the error that needs an operator, or null
 * @param transientError what ended the connection when a reconnect may help, or null after a clean end
 * @param stopped whether the fetcher was being closed (or its thread interrupted)
 */
record SessionOutcome(FetcherException fatal, Throwable transientError, boolean stopped) {}

package io.gridway.fetcher.mysql;

import com.github.shyiko.mysql.binlog.event.EventData;

/**
 * Stands in for an event the fetcher could not decode. The client skips events whose deserializer throws,
 * which would lose data silently; a deserializer returns this instead, and the assembler stops the
 * session on it, in order.
 *
 * @param error what went wrong
 * @param fatal true when retrying cannot help (an unknown column type, a corrupt value); false for a
 *     failure of the server connection behind information_schema
 */
record DecodeFailure(RuntimeException error, boolean fatal) implements EventData {}

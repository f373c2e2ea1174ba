/**
 * The MySQL/MariaDB binlog fetcher: {@link io.gridway.fetcher.mysql.MysqlBinlogFetcher} reads a server's
 * binlog as a replica and hands whole committed transactions to a relay; {@link
 * io.gridway.fetcher.mysql.MysqlFetcherConfig} configures it. Everything else is package-private.
 */
package io.gridway.fetcher.mysql;

package io.gridway.fetcher.mysql;

import io.gridway.core.fetch.Fetcher;
import io.gridway.core.fetch.FetcherContext;
import io.gridway.core.fetch.FetcherProvider;

/** {@code source.type: mysql}: the MySQL/MariaDB binlog fetcher, with its {@code source.mysql} section. */
public final class MysqlFetcherProvider implements FetcherProvider<MysqlFetcherConfig> {

  @Override
  public String type() {
    return "mysql";
  }

  @Override
  public Class<MysqlFetcherConfig> settingsType() {
    return MysqlFetcherConfig.class;
  }

  @Override
  public String sourceId(MysqlFetcherConfig settings) {
    return settings.source();
  }

  @Override
  public Fetcher create(MysqlFetcherConfig settings, FetcherContext context) {
    return new MysqlBinlogFetcher(settings, context.clock());
  }
}

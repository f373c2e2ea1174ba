package io.gridway.fetcher.mysql;

import io.gridway.core.config.ByteSize;
import io.gridway.core.config.ConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How a {@link MysqlBinlogFetcher} reaches its server and what it reads. Loaded with core's {@link
 * ConfigLoader} (unknown keys rejected); optional keys are boxed and get their defaults here.
 *
 * <pre>{@code
 * source: shop                       # the source id every schema and event carries
 * host: db1.example.com
 * port: 3306                         # default 3306
 * # or, to follow a MariaDB primary switch (needs scn: gtid): hosts: [db1.example.com:3306, db2.example.com:3306]
 * user: gridway
 * passwordFile: /etc/gridway/db1.pw  # or passwordEnv: GRIDWAY_DB1_PASSWORD (exactly one of them)
 * serverId: 5401                     # this replica's server_id, unique among the server's replicas
 * start: end                         # first start only: end | earliest | mariadb-bin.000042:1234 | gtid:0-1-42
 * heartbeatInterval: 5s              # binlog heartbeats when idle; 0 turns them off
 * connectTimeout: 10s
 * include: [shop.*]                  # db.table globs (* and ?); empty means every table
 * exclude: [shop.tmp_*]
 * reconnectBackoffMax: 30s
 * maxTransactionBytes: 256MiB        # a bigger transaction stops the fetcher instead of exhausting the heap
 * tls: {mode: verify-identity, caFile: /etc/gridway/db-ca.pem}   # binlog and JDBC connections (default disabled)
 * scn: file                          # file (default): SCNs from binlog file and offset; gtid: from the MariaDB GTID
 * gtidDomain: 0                      # scn: gtid only: the one GTID domain followed (default 0)
 * }</pre>
 *
 * <p>The password itself is never part of this record (so never in its {@code toString}); it is read
 * from the file or the environment variable when the fetcher is built.
 */
public record MysqlFetcherConfig(
    String source,
    String host,
    Integer port,
    String user,
    String passwordFile,
    String passwordEnv,
    Long serverId,
    String start,
    Duration heartbeatInterval,
    Duration connectTimeout,
    List<String> include,
    List<String> exclude,
    Duration reconnectBackoffMax,
    ByteSize maxTransactionBytes,
    Tls tls,
    List<String> hosts,
    ScnMode scn,
    Long gtidDomain) {

  static final int DEFAULT_PORT = 3306;
  static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(5);
  static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration DEFAULT_BACKOFF_MAX = Duration.ofSeconds(30);
  static final ByteSize DEFAULT_MAX_TRANSACTION = ByteSize.ofMebibytes(256);

  public MysqlFetcherConfig {
    source = required(source, "source");
    hosts = hosts == null ? List.of() : List.copyOf(hosts);
    scn = scn == null ? ScnMode.FILE : scn;
    if (hosts.isEmpty()) {
      host = required(host, "host");
      port = port == null ? DEFAULT_PORT : port;
      checkPort(port, "port");
    } else {
      if (host != null || port != null) {
        throw new IllegalArgumentException("set host (and port) or hosts, not both");
      }
      Endpoint.parseAll(hosts);
      if (hosts.size() > 1 && scn != ScnMode.GTID) {
        throw new IllegalArgumentException("hosts: following a primary switch needs scn: gtid (scn: file numbers"
            + " transactions by one server's binlog files, which another server does not share; docs/scn.md)");
      }
    }
    if (gtidDomain != null && scn != ScnMode.GTID) {
      throw new IllegalArgumentException("gtidDomain: only with scn: gtid");
    }
    gtidDomain = scn != ScnMode.GTID ? null : gtidDomain == null ? Long.valueOf(0) : gtidDomain;
    if (gtidDomain != null && (gtidDomain < 0 || gtidDomain > 0xFFFF_FFFFL)) {
      throw new IllegalArgumentException("gtidDomain " + gtidDomain + " out of range 0..4294967295");
    }
    user = required(user, "user");
    if ((passwordFile == null) == (passwordEnv == null)) {
      throw new IllegalArgumentException("set exactly one of passwordFile and passwordEnv");
    }
    if (serverId == null) {
      throw new IllegalArgumentException("serverId is required: a server_id unique among the server's replicas");
    }
    if (serverId < 1 || serverId > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("serverId " + serverId + " out of range 1..4294967295");
    }
    start = start == null ? "end" : start;
    StartPosition parsedStart = StartPosition.parse(start); // rejects a malformed position now, not at the first connect
    if (hosts.size() > 1 && parsedStart.kind() == StartPosition.Kind.FILE) {
      // A file:offset names one server's binlog; if that server is gone before the first start has turned it into a
      // GTID position, the next primary would be read from the same file name and offset in its own, different files.
      throw new IllegalArgumentException("start: " + start + " is a position in one server's binlog files; with several"
          + " hosts start at end, earliest or gtid:<domain>-<server>-<sequence> (docs/scn.md)");
    }
    heartbeatInterval = nonNegative(heartbeatInterval == null ? DEFAULT_HEARTBEAT : heartbeatInterval, "heartbeatInterval");
    connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
    if (connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("connectTimeout must be positive");
    }
    include = include == null ? List.of() : List.copyOf(include);
    exclude = exclude == null ? List.of() : List.copyOf(exclude);
    TableFilter.of(include, exclude); // rejects malformed globs now
    reconnectBackoffMax = reconnectBackoffMax == null ? DEFAULT_BACKOFF_MAX : reconnectBackoffMax;
    if (reconnectBackoffMax.toMillis() < 1) {
      throw new IllegalArgumentException("reconnectBackoffMax must be at least 1ms");
    }
    maxTransactionBytes = maxTransactionBytes == null ? DEFAULT_MAX_TRANSACTION : maxTransactionBytes;
    if (maxTransactionBytes.bytes() < 1024) {
      throw new IllegalArgumentException("maxTransactionBytes must be at least 1KiB");
    }
    tls = tls == null ? Tls.DISABLED : tls;
  }

  /** Without TLS (the {@code tls} key absent). */
  public MysqlFetcherConfig(String source, String host, Integer port, String user, String passwordFile, String passwordEnv,
      Long serverId, String start, Duration heartbeatInterval, Duration connectTimeout, List<String> include,
      List<String> exclude, Duration reconnectBackoffMax, ByteSize maxTransactionBytes) {
    this(source, host, port, user, passwordFile, passwordEnv, serverId, start, heartbeatInterval, connectTimeout, include,
        exclude, reconnectBackoffMax, maxTransactionBytes, null, null, null, null);
  }

  /** One host, SCNs from binlog file and offset (the keys {@code hosts}, {@code scn}, {@code gtidDomain} absent). */
  public MysqlFetcherConfig(String source, String host, Integer port, String user, String passwordFile, String passwordEnv,
      Long serverId, String start, Duration heartbeatInterval, Duration connectTimeout, List<String> include,
      List<String> exclude, Duration reconnectBackoffMax, ByteSize maxTransactionBytes, Tls tls) {
    this(source, host, port, user, passwordFile, passwordEnv, serverId, start, heartbeatInterval, connectTimeout, include,
        exclude, reconnectBackoffMax, maxTransactionBytes, tls, null, null, null);
  }

  public MysqlFetcherConfig withTls(Tls newTls) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, serverId, start,
        heartbeatInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, newTls, hosts, scn, gtidDomain);
  }

  /** The essentials; every optional key at its default. */
  public static MysqlFetcherConfig of(String source, String host, int port, String user, Path passwordFile, long serverId) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile.toString(), null, serverId,
        null, null, null, null, null, null, null, null, null, null, null);
  }

  /** Reads and validates a YAML file (see the class comment for the keys). */
  public static MysqlFetcherConfig load(Path file) {
    return ConfigLoader.load(file, MysqlFetcherConfig.class);
  }

  public MysqlFetcherConfig withServerId(long newServerId) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, newServerId, start,
        heartbeatInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  public MysqlFetcherConfig withStart(String newStart) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, serverId, newStart,
        heartbeatInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  public MysqlFetcherConfig withTables(List<String> newInclude, List<String> newExclude) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, serverId, start,
        heartbeatInterval, connectTimeout, newInclude, newExclude, reconnectBackoffMax, maxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  public MysqlFetcherConfig withHeartbeatInterval(Duration newInterval) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, serverId, start,
        newInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  public MysqlFetcherConfig withConnectTimeout(Duration newTimeout) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, serverId, start,
        heartbeatInterval, newTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  public MysqlFetcherConfig withUser(String newUser, Path newPasswordFile) {
    return new MysqlFetcherConfig(source, host, port, newUser, newPasswordFile.toString(), null, serverId, start,
        heartbeatInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  public MysqlFetcherConfig withLimits(Duration newBackoffMax, ByteSize newMaxTransactionBytes) {
    return new MysqlFetcherConfig(source, host, port, user, passwordFile, passwordEnv, serverId, start,
        heartbeatInterval, connectTimeout, include, exclude, newBackoffMax, newMaxTransactionBytes, tls, hosts, scn, gtidDomain);
  }

  /** Following a MariaDB primary switch: several hosts, SCNs from the GTID of {@code domain} (docs/scn.md). */
  public MysqlFetcherConfig withHosts(List<String> newHosts, long domain) {
    return new MysqlFetcherConfig(source, null, null, user, passwordFile, passwordEnv, serverId, start,
        heartbeatInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, newHosts,
        ScnMode.GTID, domain);
  }

  /** The servers to read, in the order they are tried: {@code host:port}, or each of {@code hosts}. */
  List<Endpoint> endpoints() {
    return hosts.isEmpty() ? List.of(new Endpoint(host, port)) : Endpoint.parseAll(hosts);
  }

  /** This config for one of its servers: what a connection to it (binlog or JDBC) reads. */
  MysqlFetcherConfig at(Endpoint endpoint) {
    return new MysqlFetcherConfig(source, endpoint.host(), endpoint.port(), user, passwordFile, passwordEnv, serverId,
        start, heartbeatInterval, connectTimeout, include, exclude, reconnectBackoffMax, maxTransactionBytes, tls, null,
        scn, scn == ScnMode.GTID ? gtidDomain : null);
  }

  /** How SCNs are derived (docs/scn.md); a position of one kind is refused by a source of the other. */
  public enum ScnMode {
    /** {@code (binlog file index << 32) | end offset}: one server's numbering. The default. */
    FILE,
    /** {@code GTID sequence << 6} in one MariaDB GTID domain: survives a primary switch. */
    GTID
  }

  /** One server: {@code host:port}. */
  record Endpoint(String host, int port) {
    static List<Endpoint> parseAll(List<String> hosts) {
      List<Endpoint> all = new java.util.ArrayList<>();
      for (int i = 0; i < hosts.size(); i++) {
        Endpoint e = parse(hosts.get(i), "hosts[" + i + "]");
        if (all.contains(e)) {
          throw new IllegalArgumentException("hosts[" + i + "]: " + e + " is listed twice");
        }
        all.add(e);
      }
      return all;
    }

    private static Endpoint parse(String text, String where) {
      String value = text == null ? "" : text.trim();
      int colon = value.lastIndexOf(':');
      String name = colon < 0 ? value : value.substring(0, colon);
      if (name.isBlank()) {
        throw new IllegalArgumentException(where + ": '" + text + "' names no host (write host or host:port)");
      }
      int port = DEFAULT_PORT;
      if (colon >= 0) {
        try {
          port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(where + ": the port in '" + text + "' is not a number", e);
        }
      }
      checkPort(port, where + " port");
      return new Endpoint(name, port);
    }

    @Override
    public String toString() {
      return host + ":" + port;
    }
  }

  private static void checkPort(int port, String key) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(key + " " + port + " out of range 1..65535");
    }
  }

  private static String required(String value, String key) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(key + " is required");
    }
    return value;
  }

  private static Duration nonNegative(Duration value, String key) {
    if (value.isNegative()) {
      throw new IllegalArgumentException(key + " cannot be negative");
    }
    return value;
  }

  /**
   * TLS to the source server, for the binlog connection and the fetcher's JDBC reads alike ({@code tls:} in the
   * source's YAML; docs/security.md).
   *
   * @param mode how much is checked
   * @param caFile PEM certificates of the CAs that sign the server's certificate ({@code verify-ca} and {@code
   *     verify-identity}); null for the JDK's default trust store
   */
  public record Tls(Mode mode, String caFile) {
    static final Tls DISABLED = new Tls(Mode.DISABLED, null);

    /** What a connection demands of the server. */
    public enum Mode {
      /** Plain TCP. */
      DISABLED,
      /** Encrypted, the certificate not checked: protects against listening, not against a server in the middle. */
      REQUIRED,
      /** Encrypted, the certificate must chain to {@code caFile}. */
      VERIFY_CA,
      /** As {@code verify-ca}, and the certificate must name {@code host}: the setting to use. */
      VERIFY_IDENTITY
    }

    public Tls {
      mode = mode == null ? Mode.VERIFY_IDENTITY : mode;
      if (caFile != null && (mode == Mode.DISABLED || mode == Mode.REQUIRED)) {
        throw new IllegalArgumentException("tls.caFile: only with mode verify-ca or verify-identity (mode is "
            + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ")");
      }
    }
  }
}

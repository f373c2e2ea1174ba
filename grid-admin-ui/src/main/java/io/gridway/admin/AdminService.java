package io.gridway.admin;

import io.gridway.tls.PlaintextRefusal;
import io.gridway.tls.ServerTls;
import io.gridway.tls.ServerTlsSettings;
import java.util.Map;

import io.gridway.cluster.ControllerHost;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code gridway admin}: the composition root of the admin service. It joins the cluster as a Helix controller
 * ({@link ControllerHost}; Helix elects one leader among every controller and admin service), and serves the REST API
 * and the UI over HTTP/1.1 on Netty, bound to {@code 127.0.0.1} unless configured otherwise.
 *
 * <p>Lifecycle: {@link #start} once, {@link #close} once. Thread-safe.
 */
public final class AdminService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdminService.class);
  private static final int MAX_BODY = 64 * 1024;

  private final ControllerHost controller;
  private final Grid grid;
  private final ThreadPoolExecutor workers;
  private final ScheduledExecutorService sampler;
  private final EventLoopGroup loops;
  private final Channel server;
  private final Path stateDir;
  private final boolean https;

  private AdminService(ControllerHost controller, Grid grid, ThreadPoolExecutor workers, ScheduledExecutorService sampler,
      EventLoopGroup loops, Channel server, Path stateDir, boolean https) {
    this.https = https;
    this.sampler = sampler;
    this.controller = controller;
    this.grid = grid;
    this.workers = workers;
    this.loops = loops;
    this.server = server;
    this.stateDir = stateDir;
  }

  /** Starts the controller and the HTTP server; the first start also creates the admin credential. */
  public static AdminService start(AdminSettings settings, Clock clock) throws InterruptedException {
    return start(settings, clock, null, System.getenv());
  }

  /**
   * As above, serving HTTPS when {@code tls} is given (the relay's TLS machinery: certificate reloaded from disk,
   * optional client certificates, plain HTTP answered with a 400 naming the https URL).
   */
  public static AdminService start(AdminSettings settings, Clock clock, ServerTlsSettings tls, Map<String, String> environment)
      throws InterruptedException {
    ServerTls serverTls = tls == null ? null : new ServerTls(tls, environment, "http.tls", "admin service");
    Path stateDir = prepareStateDir(settings.stateDir());
    Users users = Users.open(stateDir);
    Grid grid = new Grid(settings.zk(), settings.cluster(), settings.zkTimeout());
    AuditLog audit;
    try {
      audit = new AuditLog(stateDir, clock, new AuditLog.Trail() {
        @Override
        public void append(io.gridway.cluster.AuditTrail.Entry entry) {
          grid.appendAudit(entry);
        }

        @Override
        public java.util.List<io.gridway.cluster.AuditTrail.Entry> recent(int limit) {
          return grid.auditTrail(limit);
        }
      }, "admin " + settings.controllerName());
    } catch (RuntimeException e) {
      grid.close();
      throw e;
    }
    ControllerHost controller;
    try {
      controller = ControllerHost.start(settings.zk(), settings.cluster(), settings.controllerName());
    } catch (RuntimeException e) {
      grid.close();
      throw e;
    }
    ThreadPoolExecutor workers = new ThreadPoolExecutor(4, 4, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(256),
        new DefaultThreadFactory("gridway-admin-api", true));
    ProgressHistory history = new ProgressHistory(clock, settings.sampleInterval());
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("gridway-admin-sampler", true));
    sampler.scheduleWithFixedDelay(new Sampler(grid, history), 0, settings.sampleInterval().toMillis(), TimeUnit.MILLISECONDS);
    Api api = new Api(grid, users, new Sessions(clock, settings.sessionTtl(), stateDir.resolve(Sessions.FILE)), audit,
        RelayHttp.of(settings.relays(), environment, java.time.Duration.ofSeconds(2)), history, new GroupTargets(settings.consumerConfigs()), clock, tls != null);
    StaticFiles files = new StaticFiles();
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("gridway-admin-http"), NioIoHandler.newFactory());
    Channel server;
    try {
      server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              if (serverTls != null) {
                InetSocketAddress local = ch.localAddress();
                ch.pipeline().addLast("tls-detect", new PlaintextRefusal(serverTls.context(),
                    "https://" + local.getHostString() + ":" + local.getPort() + "/"));
              }
              ch.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192), new HttpObjectAggregator(MAX_BODY),
                  new AdminHandler(api, files, workers));
            }
          }).bind(settings.host(), settings.port()).sync().channel();
    } catch (RuntimeException | InterruptedException e) {
      loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      sampler.shutdownNow();
      workers.shutdownNow();
      grid.close();
      controller.close();
      throw e;
    }
    AdminService service = new AdminService(controller, grid, workers, sampler, loops, server, stateDir, tls != null);
    LOG.info("admin service for cluster {} listening on {}", settings.cluster(), service.url());
    return service;
  }

  /** One sample of the progress history; a ZooKeeper outage skips samples, logged once per change. */
  private static final class Sampler implements Runnable {
    private final Grid grid;
    private final ProgressHistory history;
    private boolean failing;

    Sampler(Grid grid, ProgressHistory history) {
      this.grid = grid;
      this.history = history;
    }

    @Override
    public void run() {
      try {
        history.sample(grid.status());
        if (failing) {
          LOG.info("sampling the partitions' progress again");
          failing = false;
        }
      } catch (RuntimeException e) {
        if (!failing) {
          LOG.warn("cannot sample the partitions' progress ({}); the history has a gap until ZooKeeper answers", e.getMessage());
          failing = true;
        }
      }
    }
  }

  private static Path prepareStateDir(Path dir) {
    try {
      if (!Files.isDirectory(dir)) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create state directory " + dir + ": " + e.getMessage(), e);
    }
  }

  /** {@code http://host:port/}. */
  public String url() {
    InetSocketAddress a = (InetSocketAddress) server.localAddress();
    return (https ? "https://" : "http://") + a.getHostString() + ":" + a.getPort() + "/";
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** The file holding the first admin's password (present until the operator deletes it). */
  public Path initialPasswordFile() {
    return stateDir.resolve(Users.INITIAL_PASSWORD_FILE);
  }

  /** Whether this service's controller leads the cluster now. */
  public boolean isLeadingController() {
    return controller.isLeader();
  }

  @Override
  public void close() {
    try {
      server.close().syncUninterruptibly();
      loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
      sampler.shutdownNow();
      workers.shutdownNow();
      grid.close();
    } finally {
      controller.close();
    }
    LOG.info("admin service stopped");
  }
}

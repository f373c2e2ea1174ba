package io.gridway.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.cluster.ClusterStatus;
import io.gridway.cluster.GroupSpec;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The REST API under {@code /api/v1} (documented in {@code openapi.json}, served at {@code /api/v1/openapi.json}).
 * Reads need a session of any role; pausing, resuming and editing groups need {@link Role#OPERATOR}; users need
 * {@link Role#ADMIN}. Every write needs the session's CSRF token in {@code X-CSRF-Token} and a JSON body type, and is
 * recorded in the {@link AuditLog} before it is answered. Thread-safe.
 */
final class Api {
  static final String PREFIX = "/api/v1";
  static final String COOKIE = "gw_session";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Grid grid;
  private final Users users;
  private final Sessions sessions;
  private final AuditLog audit;
  private final Clock clock;
  private final PartitionResets resets;
  private final RelayProbe relayProbe;
  private final ProgressHistory history;
  private final ParkedRows parked;
  private final SnapshotStatus snapshots;
  private final GroupSnapshots onDemandSnapshots;
  private final String cookieAttributes;
  private final LoginThrottle logins;

  /** {@code secureCookies}: served over HTTPS, so the session cookie must never travel over plain HTTP. */
  Api(Grid grid, Users users, Sessions sessions, AuditLog audit, RelayHttp relayHttp, ProgressHistory history, GroupTargets targets,
      Clock clock, boolean secureCookies) {
    this.cookieAttributes = "; Path=/; HttpOnly; SameSite=Strict" + (secureCookies ? "; Secure" : "");
    this.history = history;
    this.parked = new ParkedRows(targets);
    this.snapshots = new SnapshotStatus(targets);
    this.onDemandSnapshots = new GroupSnapshots(grid, audit);
    this.logins = new LoginThrottle(clock);
    RelayProbe relays = new RelayProbe(relayHttp);
    this.resets = new PartitionResets(new ResetPlanner(grid, relays, new CommitTimes(relayHttp, clock), targets::snapshotAbility, clock), audit);
    this.relayProbe = relays;
    this.grid = grid;
    this.users = users;
    this.sessions = sessions;
    this.audit = audit;
    this.clock = clock;
  }

  Response handle(Request request) {
    List<String> s = request.segments().subList(2, request.segments().size()); // after "api", "v1"
    String m = request.method();
    if (s.equals(List.of("openapi.json")) && m.equals("GET")) {
      return new Response(HttpResponseStatus.OK, Response.JSON, openApi(), Map.of());
    }
    if (s.equals(List.of("session"))) {
      return switch (m) {
        case "GET" -> sessionInfo(request);
        case "POST" -> login(request);
        case "DELETE" -> logout(request);
        default -> throw methodNotAllowed(m, request.path());
      };
    }
    Sessions.Session session = sessions.find(request.cookie()).orElseThrow(ApiException::unauthenticated);
    if (!m.equals("GET")) {
      requireCsrf(request, session);
    }
    if (s.equals(List.of("cluster")) && m.equals("GET")) {
      return json(HttpResponseStatus.OK, grid.status());
    }
    if (s.equals(List.of("audit")) && m.equals("GET")) {
      return json(HttpResponseStatus.OK, audit.recent(intParam(request, "limit", 100, 1, 1000)));
    }
    if (s.equals(List.of("users"))) {
      require(session, Role.ADMIN, "manage users");
      return switch (m) {
        case "GET" -> json(HttpResponseStatus.OK, users.roles());
        case "POST" -> addUser(request, session);
        default -> throw methodNotAllowed(m, request.path());
      };
    }
    if (s.size() == 2 && s.get(0).equals("policy") && m.equals("POST") && (s.get(1).equals("validate") || s.get(1).equals("explain"))) {
      return policy(request, s.get(1).equals("explain"));
    }
    if (s.equals(List.of("relays")) && m.equals("GET")) {
      return json(HttpResponseStatus.OK, relays());
    }
    if (s.size() == 3 && s.get(0).equals("instances") && m.equals("POST") && (s.get(2).equals("enable") || s.get(2).equals("disable"))) {
      return enableInstance(session, s.get(1), s.get(2).equals("enable"));
    }
    if (!s.isEmpty() && s.get(0).equals("groups")) {
      return groups(request, session, s, m);
    }
    throw ApiException.notFound("no endpoint " + m + " " + request.path());
  }

  private Response groups(Request request, Sessions.Session session, List<String> s, String m) {
    if (s.size() == 1) {
      return switch (m) {
        case "GET" -> json(HttpResponseStatus.OK, groupViews().values());
        case "POST" -> createGroup(request, session);
        default -> throw methodNotAllowed(m, request.path());
      };
    }
    String name = s.get(1);
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badField("group", "'" + name + "' is not a group name (1-100 of [A-Za-z0-9_.-], starting alphanumeric)");
    }
    if (s.size() == 2) {
      return switch (m) {
        case "GET" -> json(HttpResponseStatus.OK, requireGroup(name));
        case "PUT" -> updateGroup(request, session, name);
        case "DELETE" -> deleteGroup(request, session, name);
        default -> throw methodNotAllowed(m, request.path());
      };
    }
    if (s.size() == 3 && m.equals("GET") && s.get(2).equals("snapshot")) {
      return json(HttpResponseStatus.OK, snapshots.read(name, requireGroup(name).partitions()));
    }
    if (s.size() == 4 && s.get(2).equals("snapshot")) {
      return onDemandSnapshots.handle(request, session, name, s.get(3));
    }
    if (s.size() == 3 && m.equals("GET") && s.get(2).equals("parked")) {
      requireGroup(name);
      return json(HttpResponseStatus.OK, parked.list(name, intParam(request, "limit", 200, 1, 1000)));
    }
    if (s.size() == 4 && m.equals("POST") && s.get(2).equals("parked") && (s.get(3).equals("replay") || s.get(3).equals("discard"))) {
      return parkedAction(request, session, name, s.get(3).equals("replay"));
    }
    if (s.size() == 3 && m.equals("GET") && s.get(2).equals("history")) {
      requireGroup(name);
      return json(HttpResponseStatus.OK, history.of(name));
    }
    if (s.size() == 3 && m.equals("POST") && (s.get(2).equals("pause") || s.get(2).equals("resume"))) {
      return pauseGroup(request, session, name, s.get(2).equals("pause"));
    }
    if (s.size() == 5 && s.get(2).equals("partitions") && m.equals("POST") && (s.get(4).equals("pause") || s.get(4).equals("resume"))) {
      return pausePartition(request, session, name, partition(s.get(3)), s.get(4).equals("pause"));
    }
    if (s.size() == 5 && s.get(2).equals("partitions") && s.get(4).equals("reset")) {
      return resets.handle(request, session, name, partition(s.get(3)));
    }
    throw ApiException.notFound("no endpoint " + m + " " + request.path());
  }

  private static int partition(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw ApiException.badField("partition", "'" + text + "' is not a partition number");
    }
  }

  // ---- session ----

  private Response sessionInfo(Request request) {
    Optional<Sessions.Session> s = sessions.find(request.cookie());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("authenticated", s.isPresent());
    s.ifPresent(x -> {
      body.put("user", x.user());
      body.put("role", x.role().wireName());
      body.put("csrfToken", x.csrfToken());
    });
    return json(HttpResponseStatus.OK, body);
  }

  private Response login(Request request) {
    JsonNode body = jsonBody(request, Set.of("user", "password"));
    String user = requiredText(body, "user");
    String password = requiredText(body, "password");
    String client = request.client();
    java.time.Duration wait = logins.wait(user, client);
    if (!wait.isZero()) {
      // refused before the password is looked at: a locked name cannot be guessed
      throw tooManyLogins(wait);
    }
    Optional<Role> authenticated = users.authenticate(user, password);
    if (authenticated.isEmpty()) {
      java.time.Duration locked = logins.failed(user, client);
      audit.record(user, "session.login-failed", "client " + client, null,
          locked.isZero() ? null : Map.of("lockedSeconds", seconds(locked)));
      throw new ApiException(HttpResponseStatus.UNAUTHORIZED, "bad-credentials", null, "unknown user or wrong password");
    }
    logins.succeeded(user, client);
    Role role = authenticated.get();
    Sessions.Session session = sessions.open(user, role);
    Map<String, Object> out = Map.of("authenticated", true, "user", user, "role", role.wireName(), "csrfToken", session.csrfToken());
    return new Response(HttpResponseStatus.OK, Response.JSON, bytes(out),
        Map.of("Set-Cookie", COOKIE + "=" + session.id() + cookieAttributes));
  }

  private static long seconds(java.time.Duration d) {
    return Math.max(1, (d.toMillis() + 999) / 1000);
  }

  private static ApiException tooManyLogins(java.time.Duration wait) {
    return ApiException.tooManyRequests("too-many-logins",
        "too many failed logins for this user or from this address: try again in "
        + seconds(wait) + " s", seconds(wait));
  }

  private Response logout(Request request) {
    Sessions.Session session = sessions.find(request.cookie()).orElseThrow(ApiException::unauthenticated);
    requireCsrf(request, session);
    sessions.close(session.id());
    return new Response(HttpResponseStatus.NO_CONTENT, Response.JSON, new byte[0],
        Map.of("Set-Cookie", COOKIE + "=" + cookieAttributes + "; Max-Age=0"));
  }

  private Response addUser(Request request, Sessions.Session session) {
    JsonNode body = jsonBody(request, Set.of("name", "role", "password"));
    String name = requiredText(body, "name");
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badField("name", "'" + name + "' must be 1-100 of [A-Za-z0-9_.-], starting alphanumeric");
    }
    Role role = Role.parse(requiredText(body, "role"));
    if (role == null) {
      throw ApiException.badField("role", "must be viewer, operator or admin");
    }
    String password = requiredText(body, "password");
    if (password.length() < Users.MIN_PASSWORD) {
      throw ApiException.badField("password", "at least " + Users.MIN_PASSWORD + " characters");
    }
    String before = users.roles().get(name);
    users.add(name, role, password);
    audit.record(session.user(), "user.put", "user " + name, before == null ? null : Map.of("role", before),
        Map.of("role", role.wireName()));
    return json(HttpResponseStatus.CREATED, Map.of("name", name, "role", role.wireName()));
  }

  // ---- policies ----

  private final PolicyTools policies = new PolicyTools();

  private Response policy(Request request, boolean explain) {
    JsonNode body = jsonBody(request, explain ? Set.of("policy", "table", "row", "op") : Set.of("policy"));
    String policy = requiredText(body, "policy");
    if (!explain) {
      return json(HttpResponseStatus.OK, policies.validate(policy));
    }
    String table = requiredText(body, "table");
    if (!table.matches("[^.\\s]+\\.[^.\\s]+")) {
      throw ApiException.badField("table", "'" + table + "' is not database.table");
    }
    String row = requiredText(body, "row");
    try {
      if (!JSON.readTree(row).isObject()) {
        throw ApiException.badField("row", "must be a JSON object of column values");
      }
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw ApiException.badField("row", "not JSON: " + e.getOriginalMessage());
    }
    String op = body.hasNonNull("op") ? requiredText(body, "op") : "insert";
    if (!Set.of("insert", "update", "delete").contains(op)) {
      throw ApiException.badField("op", "'" + op + "' is not insert, update or delete");
    }
    return json(HttpResponseStatus.OK, policies.explain(policy, table, row, op));
  }

  // ---- relays and instances ----

  private List<RelayView> relays() {
    ClusterStatus status = grid.status();
    List<ClusterStatus.Instance> instances = status.instances().stream()
        .filter(i -> i.tags().stream().anyMatch(t -> t.startsWith("relay."))).toList();
    List<String> asked = instances.stream().filter(i -> i.live() && i.endpoint() != null).map(ClusterStatus.Instance::endpoint).toList();
    Map<String, RelayProbe.Answer> answers = new LinkedHashMap<>();
    for (RelayProbe.Answer a : relayProbe.ask(asked)) {
      answers.put(a.endpoint(), a);
    }
    return instances.stream().map(i -> RelayView.of(i, i.live() ? answers.get(i.endpoint()) : null)).toList();
  }

  private Response enableInstance(Sessions.Session session, String name, boolean enable) {
    require(session, Role.OPERATOR, enable ? "enable instances" : "disable instances");
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badField("instance", "'" + name + "' is not an instance name");
    }
    ClusterStatus.Instance before = grid.status().instances().stream().filter(i -> i.name().equals(name)).findFirst()
        .orElseThrow(() -> ApiException.notFound("no instance '" + name + "'"));
    grid.admin(a -> {
      a.enableInstance(name, enable);
      return null;
    });
    audit.record(session.user(), enable ? "instance.enable" : "instance.disable", "instance " + name,
        Map.of("enabled", before.enabled()), Map.of("enabled", enable));
    return json(HttpResponseStatus.OK, grid.status().instances().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow());
  }

  // ---- groups ----

  private Map<String, GroupView> groupViews() {
    ClusterStatus status = grid.status();
    Map<String, GroupView> views = new LinkedHashMap<>();
    for (ClusterStatus.Resource r : status.resources()) {
      if (r.kind().equals("group")) {
        GroupView v = GroupView.of(r, clock.instant());
        views.put(v.name(), v);
      }
    }
    return views;
  }

  GroupView requireGroup(String name) {
    GroupView v = groupViews().get(name);
    if (v == null) {
      throw ApiException.notFound("no consumer group '" + name + "'");
    }
    return v;
  }

  private Response createGroup(Request request, Sessions.Session session) {
    require(session, Role.OPERATOR, "create groups");
    JsonNode body = jsonBody(request, Set.of("name", "partitions", "replicas", "policy"));
    // the partition count from a policy: the group's partitions are the ones its rules route to, checked before it is stored
    io.gridway.policy.Policy policy = null;
    if (body.hasNonNull("policy")) {
      try {
        policy = policies.load(requiredText(body, "policy"));
      } catch (io.gridway.policy.PolicyException e) {
        throw ApiException.badField("policy", e.getMessage());
      }
    }
    String name = policy != null && !body.hasNonNull("name") ? policy.name() : requiredText(body, "name");
    if (!NAME.matcher(name).matches()) {
      throw ApiException.badField("name", "'" + name + "' must be 1-100 of [A-Za-z0-9_.-], starting alphanumeric");
    }
    int partitions;
    if (policy == null) {
      partitions = requiredInt(body, "partitions", 1, 0x10000);
    } else {
      partitions = policy.partitionsUsed();
      if (body.hasNonNull("partitions") && requiredInt(body, "partitions", 1, 0x10000) != partitions) {
        throw ApiException.badField("partitions", "policy " + policy.name() + " routes to " + partitions + " partitions, not "
            + body.get("partitions").asInt() + ": leave partitions out to take the policy's");
      }
    }
    int replicas = body.has("replicas") ? requiredInt(body, "replicas", 1, 100) : 2;
    if (groupViews().containsKey(name)) {
      throw ApiException.conflict("group '" + name + "' already exists; change its replicas with PUT, or delete it first");
    }
    GroupSpec spec = new GroupSpec(name, partitions, replicas);
    grid.admin(a -> {
      a.createOrUpdateGroup(spec);
      return null;
    });
    GroupView after = requireGroup(name);
    Map<String, Object> created = new LinkedHashMap<>(after.spec());
    if (policy != null) {
      created.put("partitionsFromPolicy", policy.name());
    }
    audit.record(session.user(), "group.create", "group " + name, null, created);
    return json(HttpResponseStatus.CREATED, after);
  }

  private Response updateGroup(Request request, Sessions.Session session, String name) {
    require(session, Role.OPERATOR, "change groups");
    JsonNode body = jsonBody(request, Set.of("replicas", "partitions"));
    GroupView before = requireGroup(name);
    requireVersion(request, before, true);
    int replicas = requiredInt(body, "replicas", 1, 100);
    if (body.has("partitions") && requiredInt(body, "partitions", 1, 0x10000) != before.partitions()) {
      throw ApiException.badField("partitions", "group '" + name + "' has " + before.partitions()
          + " partitions, fixed for its life (checkpoints are per partition); delete it and create it again to change that");
    }
    grid.admin(a -> {
      a.createOrUpdateGroup(new GroupSpec(name, before.partitions(), replicas));
      return null;
    });
    GroupView after = requireGroup(name);
    audit.record(session.user(), "group.update", "group " + name, before.spec(), after.spec());
    return json(HttpResponseStatus.OK, after);
  }

  private Response deleteGroup(Request request, Sessions.Session session, String name) {
    require(session, Role.OPERATOR, "delete groups");
    GroupView before = requireGroup(name);
    requireVersion(request, before, true);
    grid.admin(a -> {
      a.deleteGroup(name);
      return null;
    });
    audit.record(session.user(), "group.delete", "group " + name, before.spec(), null);
    return new Response(HttpResponseStatus.NO_CONTENT, Response.JSON, new byte[0], Map.of());
  }

  private Response pauseGroup(Request request, Sessions.Session session, String name, boolean pause) {
    require(session, Role.OPERATOR, pause ? "pause groups" : "resume groups");
    GroupView before = requireGroup(name);
    requireVersion(request, before, false);
    grid.admin(a -> {
      if (pause) {
        a.pauseGroup(name);
      } else {
        a.resumeGroup(name);
      }
      return null;
    });
    audit.record(session.user(), pause ? "group.pause" : "group.resume", "group " + name, Map.of("paused", before.paused()),
        Map.of("paused", pause));
    return json(HttpResponseStatus.OK, requireGroup(name));
  }

  private Response pausePartition(Request request, Sessions.Session session, String name, int partition, boolean pause) {
    require(session, Role.OPERATOR, pause ? "pause partitions" : "resume partitions");
    GroupView before = requireGroup(name);
    requireVersion(request, before, false);
    if (partition < 0 || partition >= before.partitions()) {
      throw ApiException.notFound("group '" + name + "' has partitions 0.." + (before.partitions() - 1) + ", not " + partition);
    }
    grid.admin(a -> {
      if (pause) {
        a.pausePartition(name, partition);
      } else {
        a.resumePartition(name, partition);
      }
      return null;
    });
    audit.record(session.user(), pause ? "partition.pause" : "partition.resume", "group " + name + " partition " + partition,
        Map.of("paused", before.pausedPartitions().contains(partition)), Map.of("paused", pause));
    return json(HttpResponseStatus.OK, requireGroup(name));
  }

  /**
   * Replays or discards a group's parked changes — all of them, one source table's ({@code table}), or one key's of a
   * table ({@code table} and {@code key}) — through {@link ParkedRows}, i.e. the JDBC applier's {@code ParkedChanges}.
   */
  private Response parkedAction(Request request, Sessions.Session session, String name, boolean replay) {
    require(session, Role.OPERATOR, replay ? "replay parked changes" : "discard parked changes");
    JsonNode body = jsonBody(request, Set.of("table", "key"));
    String table = body.hasNonNull("table") ? requiredText(body, "table") : null;
    String key = body.hasNonNull("key") ? requiredText(body, "key") : null;
    if (key != null && table == null) {
      throw ApiException.badField("key", "a key needs its table (give table too)");
    }
    requireGroup(name);
    io.gridway.applier.jdbc.ParkedChanges.Selection selection = new io.gridway.applier.jdbc.ParkedChanges.Selection(table, key);
    Map<String, Object> what = new LinkedHashMap<>();
    what.put("table", table);
    what.put("key", key);
    String target = "group " + name + " parked changes";
    if (replay) {
      ParkedRows.Replayed done = parked.replay(name, selection);
      what.put("parked", done.selected());
      audit.record(session.user(), "parked.replay", target, what, Map.of("applied", done.applied(), "stillParked", done.stillParked().size()));
      return json(HttpResponseStatus.OK, done);
    }
    ParkedRows.Discarded done = parked.discard(name, selection);
    what.put("parked", done.discarded());
    audit.record(session.user(), "parked.discard", target, what, Map.of("discarded", done.discarded()));
    return json(HttpResponseStatus.OK, done);
  }

  // ---- checks ----

  /**
   * A write based on an older version of the group is refused (409), so one operator's change is never silently
   * undone by another's made from a stale page. Required for edits and deletes (428 without it); pause and resume,
   * which state their outcome, check it only when given. Another admin service or the CLI writing between this check
   * and the write is not caught: Helix's ideal state is written without a version.
   */
  private static void requireVersion(Request request, GroupView current, boolean required) {
    if (request.ifMatch() == null) {
      if (required) {
        throw new ApiException(HttpResponseStatus.PRECONDITION_REQUIRED, "version-required", "If-Match",
            "If-Match: give the group's version this change is based on (GET /groups/" + current.name() + " has it)");
      }
      return;
    }
    if (!request.ifMatch().equals(current.version())) {
      throw new ApiException(HttpResponseStatus.CONFLICT, "stale-version", "If-Match", "group " + current.name()
          + " was changed since you loaded it (now " + current.replicas() + " replicas" + (current.paused() ? ", paused" : "")
          + (current.pausedPartitions().isEmpty() ? "" : ", partitions " + current.pausedPartitions() + " paused")
          + "): reload it and make your change again");
    }
  }

  static void require(Sessions.Session session, Role needed, String what) {
    if (!session.role().allows(needed)) {
      throw ApiException.forbidden("user " + session.user() + " is a " + session.role().wireName() + "; to " + what + " takes the "
          + needed.wireName() + " role");
    }
  }

  static void requireCsrf(Request request, Sessions.Session session) {
    if (request.csrfToken() == null || !java.security.MessageDigest.isEqual(request.csrfToken().getBytes(java.nio.charset.StandardCharsets.UTF_8),
        session.csrfToken().getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
      throw new ApiException(HttpResponseStatus.FORBIDDEN, "csrf", "X-CSRF-Token",
          "X-CSRF-Token: missing or not this session's token (GET /api/v1/session gives it)");
    }
  }

  static JsonNode jsonBody(Request request, Set<String> allowed) {
    if (!"application/json".equals(request.contentType())) {
      throw new ApiException(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "bad-content-type", "Content-Type",
          "Content-Type: the body must be application/json, not " + request.contentType());
    }
    JsonNode body;
    try {
      body = JSON.readTree(request.body());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw ApiException.badField("body", "not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (body == null || !body.isObject()) {
      throw ApiException.badField("body", "must be a JSON object");
    }
    for (Iterator<String> it = body.fieldNames(); it.hasNext();) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw ApiException.badField(f, "unknown member; expected " + String.join(", ", new java.util.TreeSet<>(allowed)));
      }
    }
    return body;
  }

  static String requiredText(JsonNode body, String field) {
    JsonNode n = body.get(field);
    if (n == null || n.isNull() || !n.isTextual() || n.asText().isEmpty()) {
      throw ApiException.badField(field, "required (a non-empty string)");
    }
    return n.asText();
  }

  static int requiredInt(JsonNode body, String field, int min, int max) {
    JsonNode n = body.get(field);
    if (n == null || !n.canConvertToInt() || !n.isIntegralNumber()) {
      throw ApiException.badField(field, "required (a whole number " + min + ".." + max + ")");
    }
    int v = n.intValue();
    if (v < min || v > max) {
      throw ApiException.badField(field, v + " is out of range " + min + ".." + max);
    }
    return v;
  }

  static int intParam(Request request, String name, int dflt, int min, int max) {
    String v = request.query().get(name);
    if (v == null) {
      return dflt;
    }
    try {
      int i = Integer.parseInt(v);
      if (i >= min && i <= max) {
        return i;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiException.badField(name, "'" + v + "' is not a whole number " + min + ".." + max);
  }

  static ApiException methodNotAllowed(String method, String path) {
    return new ApiException(HttpResponseStatus.METHOD_NOT_ALLOWED, "method-not-allowed", null, method + " is not allowed on " + path);
  }

  static Response json(HttpResponseStatus status, Object body) {
    return new Response(status, Response.JSON, bytes(body), Map.of());
  }

  static byte[] bytes(Object body) {
    try {
      return JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] openApi() {
    try (InputStream in = Api.class.getResourceAsStream("openapi.json")) {
      if (in == null) {
        throw new IllegalStateException("openapi.json missing from the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.gridway.deploy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gridway.cluster.AuditTrail;
import io.gridway.cluster.GroupSpec;
import io.gridway.cluster.ZkConfig;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a CLI write of the topology to the grid's audit trail in ZooKeeper, in the shape the admin service gives the
 * same write (action, target, before → after as JSON text), signed {@code cli}: the admin's Audit page shows what was
 * changed from the command line too. The change is made before it is recorded, so an append that fails is a WARN
 * naming the entry, not a failed command (as in the admin service).
 */
final class CliAudit {
  private static final Logger log = LoggerFactory.getLogger(CliAudit.class);
  static final String BY = "cli";

  private CliAudit() {}

  /** Who ran the command, as the CLI's reset requests name it. */
  static String user() {
    return System.getProperty("user.name", "cli") + " (cli)";
  }

  static void record(ZkConfig zk, String cluster, String action, String target, String before, String after) {
    AuditTrail.Entry entry = new AuditTrail.Entry(Instant.now().toString(), user(), action, target, before, after, BY);
    try (AuditTrail trail = AuditTrail.open(zk, cluster)) {
      trail.append(entry);
    } catch (RuntimeException e) {
      log.warn("{} {} was made but not recorded in the grid's audit trail: {}", action, target, e.toString());
    }
  }

  /** A group's settings as the admin service audits them; null for none. */
  static String spec(GroupSpec group) {
    if (group == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", group.name());
    fields.put("partitions", group.partitions());
    fields.put("replicas", group.replicas());
    return json(fields);
  }

  static String paused(boolean paused) {
    return json(Map.of("paused", paused));
  }

  /** The JSON text of {@code value} (maps, lists, strings, numbers). */
  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("not JSON-serialisable: " + value, e);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
}

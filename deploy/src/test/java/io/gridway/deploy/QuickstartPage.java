package io.gridway.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/quickstart.md as the test reads it: its fenced {@code sh} blocks in order, the first being the settings, and the
 * substitutions the page itself announces (settings values, the system paths moved under a temporary root, the user
 * {@code gridway} replaced by the user running the test). Every substitution must find what it replaces, so a page
 * edited away from what the test knows fails here instead of passing untested. Immutable.
 */
final class QuickstartPage {
  /** The first line of a block the test does not run; the rest of the line says why. */
  static final String NOT_RUN = "# not run by QuickstartIT: ";
  /** The paths a real install uses, which the test moves under its root. */
  static final List<String> SYSTEM_PATHS = List.of("/opt/gridway", "/etc/gridway", "/etc/systemd/system",
      "/var/lib/gridway", "/var/log/gridway");
  private static final Pattern SH_BLOCK = Pattern.compile("(?ms)^```sh\\n(.*?)^```$");
  // not after a word character or '.': so a path already moved under the root (…/root/opt/gridway) is left alone, while
  // EnvironmentFile=-/etc/gridway/… (the '-' marks an optional file) is moved
  private static final Pattern SYSTEM_PATH = Pattern.compile("(?<![\\w.])(" + String.join("|", SYSTEM_PATHS) + ")");
  private static final Pattern SERVICE_USER = Pattern.compile("\\b(chown |User=)gridway\\b");
  private static final Pattern SERVICE_GROUP = Pattern.compile("\\b(chgrp |Group=)gridway\\b");

  /** One fenced block: its text, and whether the test runs it. */
  record Block(int number, String text) {
    boolean runs() {
      return !text.startsWith(NOT_RUN);
    }
  }

  private final List<Block> blocks;

  QuickstartPage(String markdown) {
    List<Block> found = new ArrayList<>();
    Matcher m = SH_BLOCK.matcher(markdown);
    while (m.find()) {
      found.add(new Block(found.size() + 1, m.group(1)));
    }
    if (found.size() < 2) {
      throw new IllegalArgumentException("docs/quickstart.md has " + found.size() + " ```sh blocks; the first must be the settings");
    }
    this.blocks = List.copyOf(found);
  }

  /** Every block after the settings, in page order. */
  List<Block> steps() {
    return blocks.subList(1, blocks.size());
  }

  /**
   * The settings block with each {@code NAME=value} line given the test's value. The page's block must assign exactly
   * the names of {@code values}, one per line.
   */
  String settings(Map<String, String> values) {
    Map<String, String> left = new LinkedHashMap<>(values);
    StringBuilder out = new StringBuilder();
    for (String line : blocks.get(0).text().split("\n")) {
      int eq = line.indexOf('=');
      String name = eq > 0 ? line.substring(0, eq) : "";
      if (!name.matches("[A-Z][A-Z0-9_]*")) {
        throw new IllegalArgumentException("the settings block has a line that is not NAME=value: " + line);
      }
      if (!left.containsKey(name)) {
        throw new IllegalArgumentException("the settings block sets " + name + ", which QuickstartIT gives no value");
      }
      out.append(name).append('=').append(shellQuote(left.remove(name))).append('\n');
    }
    if (!left.isEmpty()) {
      throw new IllegalArgumentException("the settings block does not set " + left.keySet());
    }
    return out.toString();
  }

  /** {@code text} with the system paths moved under {@code root} and the user {@code gridway} made {@code user}. */
  static String relocate(String text, String root, String user, String group) {
    String moved = SYSTEM_PATH.matcher(text).replaceAll(m -> Matcher.quoteReplacement(root + m.group(1)));
    moved = SERVICE_USER.matcher(moved).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + user));
    return SERVICE_GROUP.matcher(moved).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + group));
  }

  /** The units the page's {@code systemctl enable --now} line starts, as unit names. */
  static List<String> enabledUnits(Block block) {
    Matcher m = Pattern.compile("(?m)^systemctl enable --now (.+)$").matcher(block.text());
    if (!m.find()) {
      return List.of();
    }
    return List.of(m.group(1).strip().split("\\s+")).stream().map(u -> u.endsWith(".service") ? u : u + ".service").toList();
  }

  private static String shellQuote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }
}

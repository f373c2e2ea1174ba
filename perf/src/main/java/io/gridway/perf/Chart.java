package io.gridway.perf;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's chart: throughput (events/s) per run as horizontal bars, one colour per stage, an invalid
 * run named with no bar. Plain SVG (self-contained: no script, no external font or style), also wrapped
 * in a small HTML page. Stateless.
 */
final class Chart {
  private static final Map<String, String> COLOURS = Map.of("limit-binlog", "#7f7f7f", "limit-loopback", "#b0b0b0",
      "peer-debezium", "#d62728", "relay-read", "#9467bd", "stage1", "#1f77b4", "stage2", "#2ca02c", "e2e", "#ff7f0e",
      "latency", "#8c564b");
  private static final int LABEL_WIDTH = 560;
  private static final int BAR_WIDTH = 420;
  private static final int ROW = 22;

  private Chart() {}

  static String svg(String title, List<RunResult> runs) {
    double max = runs.stream().filter(RunResult::valid).mapToDouble(RunResult::eventsPerSec).max().orElse(1);
    int height = 60 + ROW * runs.size();
    int width = LABEL_WIDTH + BAR_WIDTH + 110;
    StringBuilder svg = new StringBuilder();
    svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
        + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
        escape(title)));
    svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"44\" fill=\"#555\">events/s (bar length relative to the"
        + " fastest run, %,.0f)</text>%n", LABEL_WIDTH, max));
    int y = 56;
    for (RunResult run : runs) {
      String label = run.stage() + " — " + run.configuration();
      if (label.length() > 88) {
        label = label.substring(0, 87) + "…";
      }
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LABEL_WIDTH - 8,
          y + 14, escape(label)));
      if (run.valid()) {
        int length = (int) Math.max(1, Math.round(BAR_WIDTH * run.eventsPerSec() / max));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n",
            LABEL_WIDTH, y + 3, length, ROW - 6, COLOURS.getOrDefault(run.stage(), "#17becf")));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%,.0f</text>%n", LABEL_WIDTH + length + 6, y + 14,
            run.eventsPerSec()));
      } else {
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#c00\">invalid: %s</text>%n", LABEL_WIDTH, y + 14,
            escape(run.invalidReason().length() > 60 ? run.invalidReason().substring(0, 59) + "…" : run.invalidReason())));
      }
      y += ROW;
    }
    return svg.append("</svg>\n").toString();
  }

  static String html(String title, String svg) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title)
        + "</title></head>\n<body>\n" + svg + "</body></html>\n";
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}

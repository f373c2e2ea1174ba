package io.gridway.admin;

/**
 * Where an operator wants a partition's checkpoint, as the API's body and the CLI's options say it: {@code to} is
 * {@code scn} (with {@code scn}, an unsigned decimal), {@code latest} (the newest SCN the source's relays have),
 * {@code shift} (with {@code shift}, negative to replay, positive to skip) or {@code time} (with {@code time}, an
 * ISO-8601 instant: the first commit at or after it, from the relays' buffer). Checked when a plan is made, each wrong
 * member named.
 *
 * @param source the source whose relays to ask, or {@code null} for the cluster's only one
 */
public record ResetTarget(String to, String scn, Long shift, String time, String source) {}

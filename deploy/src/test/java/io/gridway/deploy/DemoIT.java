package io.gridway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code gridway demo --duration 20s}, in process, exactly as a user runs it: private MariaDB and PostgreSQL,
 * ZooKeeper, the admin service hosting the Helix controller, a relay, two consumers in one group, the workload, the
 * drain and the comparison. While the workload runs, the admin URL it prints serves the OpenAPI document, the password
 * file it names logs in as admin, and the API shows the demo's group. Asserts the exit code, that the summary says
 * source = target, that both sides hold rows, that throughput was above zero and every written row change was applied.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class DemoIT {
  private static final Pattern ADMIN = Pattern.compile("admin +(http://127\\.0\\.0\\.1:[0-9]+/)  \\(user admin, password in (\\S+)\\)");

  @Test
  void demoWithDurationEndsWithSourceEqualToTargetAndExitCode0() throws Exception {
    // the demo runs in another thread: its admin service answers only while it runs, so the checks must fit in the
    // --duration (20 s: on a loaded 2-core machine the first requests and one PBKDF2 login took over 6 s, and a CI
    // run is loaded; the checks take 1-3 s otherwise); the client is built before the demo starts, off that window
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> Gridway.run(
        new String[] {"demo", "--duration", "20s", "--rate", "100"},
        new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8)));

    Matcher admin = await("the admin line of 'Where to look'").atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(100)).failFast("the demo ended first", code::isDone)
        .until(() -> ADMIN.matcher(outBytes.toString(StandardCharsets.UTF_8)), Matcher::find);
    String password;
    try {
      password = checkAdminServiceAnswers(http, admin.group(1), Path.of(admin.group(2)));
    } catch (IOException e) {
      throw new AssertionError((code.isDone() ? "the demo ended (--duration too short for the admin checks)"
          : "the demo's admin service at " + admin.group(1) + " failed") + ": " + e, e);
    }

    Run run = new Run(code.get(140, TimeUnit.SECONDS), outBytes.toString(StandardCharsets.UTF_8),
        errBytes.toString(StandardCharsets.UTF_8));
    assertThat(run.code()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("Where to look:").contains("/health").contains("/metrics")
        .contains("PARTITIONS (consumer-1 | consumer-2)");
    assertThat(run.out()).containsPattern("result +source = target: 3 tables, [0-9,]+ rows identical");
    assertThat(run.out()).doesNotContain("DIFFERENT");
    long transactions = number(run.out(), "written +([0-9,]+) transactions");
    long written = number(run.out(), "transactions, ([0-9,]+) row changes");
    long applied = number(run.out(), "applied +([0-9,]+) row changes by 2 consumers");
    assertThat(transactions).isGreaterThan(100);
    assertThat(applied).isEqualTo(written);
    assertThat(number(run.out(), "\\(([0-9,]+)\\.[0-9] tx/s")).isPositive();
    assertThat(run.out()).containsPattern("customers +[1-9][0-9,]* +[1-9][0-9,]* +[0-9a-f]{16} +[0-9a-f]{16} +equal");
    assertThat(run.out() + run.err()).as("the demo never prints the admin password").doesNotContain(password);
  }

  /**
   * The OpenAPI document without a login; a login with the credential file's password; the demo's group. Returns the
   * password (the file goes with the demo's directory at the end).
   */
  private static String checkAdminServiceAnswers(HttpClient http, String url, Path passwordFile) throws Exception {
    HttpResponse<String> openApi = http.send(HttpRequest.newBuilder(URI.create(url + "api/v1/openapi.json"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(openApi.statusCode()).as(openApi.body()).isEqualTo(200);

    String password = Files.readString(passwordFile).strip();
    HttpResponse<String> login = http.send(HttpRequest.newBuilder(URI.create(url + "api/v1/session"))
        .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"user\":\"admin\",\"password\":\"" + password + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
    String cookie = login.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];

    HttpResponse<String> group = http.send(HttpRequest.newBuilder(URI.create(url + "api/v1/groups/demo"))
        .timeout(Duration.ofSeconds(10)).header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(group.statusCode()).as(group.body()).isEqualTo(200);
    return password;
  }

  private static long number(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(regex + " in\n" + text).isTrue();
    return Long.parseLong(m.group(1).replace(",", ""));
  }
}

package io.gridway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.gridway.cluster.GroupProgress;
import io.gridway.cluster.GroupSnapshot;
import io.gridway.cluster.SnapshotRequests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web UI in a real headless Chromium (Debian's chromium and chromedriver, nothing downloaded), against a real
 * ZooKeeper and Helix. Screenshots go to {@code target/screenshots/}; {@code README.md} shows copies of them. After
 * every test the browser's console must hold no error except the 400 answers a test provoked on purpose.
 */
class AdminBrowserIT {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Path SHOTS = Path.of("target", "screenshots");
  /**
   * Chromium is launched while the shared grid starts (it is initialised before {@link #SHARED}, whose beforeAll starts
   * the grid): the two took about 9 s one after the other before the first test.
   */
  private static final CompletableFuture<ChromeDriver> LAUNCHING = CompletableFuture.supplyAsync(AdminBrowserIT::launch);
  @RegisterExtension static final SharedGrid SHARED = new SharedGrid();
  private static TestGrid grid;
  private static ChromeDriver browser;
  private final List<String> expectedConsoleErrors = new ArrayList<>();

  private static ChromeDriver launch() {
    System.setProperty("webdriver.chrome.driver", "/usr/bin/chromedriver");
    ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium")
        .addArguments("--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update",
            "--disable-dev-shm-usage", "--window-size=1280,800");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(new java.io.File("/usr/bin/chromedriver")).build(), options);
  }

  @BeforeAll
  static void start() throws Exception {
    grid = SHARED.grid();
    try {
      browser = LAUNCHING.join();
    } catch (CompletionException e) {
      throw new IllegalStateException("cannot start chromium through /usr/bin/chromedriver (Debian's chromium and chromium-driver packages;"
          + " .ci/run installs them: apt-get install -y chromium chromium-driver)", e.getCause());
    }
    Files.createDirectories(SHOTS);
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    } else {
      LAUNCHING.thenAccept(ChromeDriver::quit); // started, but the grid failed before a test could use it
    }
  }

  @BeforeEach
  void freshPage() {
    browser.manage().window().setSize(new Dimension(1280, 800));
    // leave the last test's page first (its refresh timer must not run without a cookie), then drop every cookie
    browser.get("about:blank");
    browser.executeCdpCommand("Network.clearBrowserCookies", Map.of());
    browser.get(grid.admin.url());
    browser.manage().logs().get(LogType.BROWSER); // drop what an earlier test left
  }

  @AfterEach
  void noConsoleErrors() {
    List<String> errors = new ArrayList<>();
    for (LogEntry e : browser.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.SEVERE.intValue()
          && expectedConsoleErrors.stream().noneMatch(expected -> e.getMessage().contains(expected))) {
        errors.add(e.getMessage());
      }
    }
    assertThat(errors).as("browser console errors").isEmpty();
  }

  /**
   * Up to 20 s, checked every 50 ms: WebDriverWait's default 500 ms between checks added up to a quarter of a second to
   * each of the tests' waits.
   */
  private static WebDriverWait waiting() {
    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    wait.pollingEvery(Duration.ofMillis(50));
    return wait;
  }

  private WebElement visible(String id) {
    return waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
  }

  /**
   * Clicks {@code id} once it is shown. The groups page renders itself again every 5 s (and after each action), which
   * can replace the element between finding and clicking it: then it is found and clicked again (a click that threw
   * did not happen).
   */
  private void click(String id) {
    waiting().ignoring(StaleElementReferenceException.class).until(d -> {
      WebElement e = d.findElement(By.id(id));
      if (!e.isDisplayed()) {
        return false;
      }
      e.click();
      return true;
    });
  }

  private void logIn(String user, String password) {
    visible("login-user").sendKeys(user);
    // keyboard only: Enter in the password field submits the form
    browser.findElement(By.id("login-password")).sendKeys(password, Keys.ENTER);
    visible("nav");
  }

  /**
   * The shared session of user admin ({@link TestGrid#loggedInAdmin}) handed to the browser as its cookie, then the page
   * loaded again: logging in through the form hashes the password (PBKDF2, 210,000 rounds) each time, which only the
   * tests of logging in need ({@link #anOperatorLogsInSeesTheTopologyAndEachPartitionsLeader}, the viewer's).
   */
  private void asAdmin() throws java.io.IOException {
    String[] cookie = grid.loggedInAdmin().cookie.split("=", 2);
    browser.manage().addCookie(new Cookie.Builder(cookie[0], cookie[1]).path("/").isHttpOnly(true).sameSite("Strict").build());
    browser.navigate().refresh();
    visible("nav");
  }

  private void screenshot(String name) throws Exception {
    Path file = browser.getScreenshotAs(OutputType.FILE).toPath();
    Files.copy(file, SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  /** The text of {@code selector} in partition {@code p}'s row of group orders ({@code tr}: the whole row). */
  private String cellText(int p, String selector) {
    return (String) browser.executeScript("const r = document.querySelector(\"#group-orders tr[data-partition='\" + arguments[0] + \"']\");"
        + "const c = arguments[1] === 'tr' ? r : r.querySelector(arguments[1]); return c.textContent;", p, selector);
  }

  /** Partition → leader cell of group orders, read in one script so that the page's refresh cannot interleave. */
  private Map<Integer, String> leadersShown() {
    Object rows = browser.executeScript("return Array.from(document.querySelectorAll('#group-orders tbody tr'))"
        + ".map(r => [r.dataset.partition, r.querySelector('.leader').textContent]);");
    Map<Integer, String> shown = new TreeMap<>();
    for (Object row : (List<?>) rows) {
      List<?> cells = (List<?>) row;
      shown.put(Integer.valueOf((String) cells.get(0)), (String) cells.get(1));
    }
    return shown;
  }

  @Test
  void anOperatorLogsInSeesTheTopologyAndEachPartitionsLeader() throws Exception {
    logIn("admin", grid.adminPassword());
    assertThat(visible("topology-page").isDisplayed()).isTrue();
    waiting().until(ExpectedConditions.textToBe(By.id("controller"), "admin1"));
    assertThat(browser.findElement(By.id("instances")).getText()).contains("c1").contains("c2").contains("relay1");
    assertThat(browser.findElement(By.id("relays")).getText()).contains("relay.shop").contains("0: relay1");
    screenshot("topology");

    // partition 1 loads a snapshot, partition 2 has loaded one: what their leaders publish beside their checkpoints
    grid.publishSnapshot(1, new GroupProgress.Snapshot("shop.orders", 2, 3, 14, 27_950));
    grid.publishSnapshot(2, new GroupProgress.Snapshot(null, 4, 3, 40, 80_000));
    try {
      browser.findElement(By.id("nav-groups")).click();
      visible("group-orders");
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(leadersShown()).isEqualTo(new TreeMap<>(grid.leaders)));
      assertThat(cellText(1, "tr")).contains("1001").contains(Long.toString(TestGrid.LAG_MILLIS));
      assertThat(cellText(1, ".snapshot")).isEqualTo("shop.orders (table 2 of 3): 14 chunks, 27,950 rows");
      assertThat(cellText(2, ".snapshot")).isEqualTo("done (3 tables; 40 chunks, 80,000 rows)");
      assertThat(cellText(0, ".snapshot")).isEqualTo("—");
      screenshot("groups");
    } finally {
      grid.publishSnapshot(1, null);
      grid.publishSnapshot(2, null);
    }

    browser.manage().window().setSize(new Dimension(420, 800));
    visible("pause-orders-0");
    screenshot("groups-narrow");
  }

  @Test
  void pausingAPartitionInTheBrowserStopsItsConsumerAndResumingStartsItAgain() throws Exception {
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    click("pause-orders-2");
    visible("resume-orders-2");
    await().atMost(PATIENCE).until(() -> !grid.leaders.containsKey(2));
    assertThat(cellText(2, ".state")).isEqualTo("paused");

    click("resume-orders-2");
    visible("pause-orders-2");
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);

    browser.findElement(By.id("nav-audit")).click();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("audit"), "partition.resume"));
    assertThat(browser.findElement(By.id("audit")).getText()).contains("partition.pause").contains("group orders partition 2");
    screenshot("audit");
  }

  @Test
  void theLeadersShownMoveWhenAConsumerStops() throws Exception {
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    visible("group-orders");
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(leadersShown().values()).contains("c1", "c2"));
    grid.stopConsumer("c2");
    try {
      // the page refreshes itself every 5 s; the Refresh button does it now
      await().atMost(PATIENCE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
        browser.findElement(By.id("refresh")).click();
        assertThat(leadersShown().values()).containsOnly("c1").hasSize(4);
        assertThat(leadersShown()).isEqualTo(new TreeMap<>(grid.leaders));
      });
      screenshot("groups-after-c2-stopped");
    } finally {
      grid.startConsumer("c2");
    }
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
      browser.findElement(By.id("refresh")).click();
      assertThat(leadersShown().values()).contains("c1", "c2");
    });
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);
  }

  @Test
  void aWrongValueInAFormShowsTheServersMessage() throws Exception {
    expectedConsoleErrors.add("/api/v1/groups - Failed to load resource: the server responded with a status of 400");
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    visible("new-name").sendKeys("shop");
    browser.findElement(By.id("new-partitions")).sendKeys("0");
    browser.findElement(By.id("create-submit")).click();
    waiting().until(ExpectedConditions.textToBe(By.id("create-message"),
        "partitions: 0 is out of range 1..65536"));
    assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("new-partitions");
    browser.executeScript("document.getElementById('create-message').scrollIntoView({block: 'center'});");
    screenshot("create-group-error");
    ApiClient api = grid.loggedInAdmin();
    assertThat(api.get("/api/v1/groups/shop").status()).isEqualTo(404);

    // the partition count from a pasted policy: a broken one is refused with the policy engine's message
    WebElement name = browser.findElement(By.id("new-name"));
    name.clear();
    browser.findElement(By.id("new-partitions")).clear();
    browser.executeScript("document.getElementById('new-policy').value = arguments[0];", "name: x\nrules: [");
    browser.findElement(By.id("create-submit")).click();
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("create-message"),
        "policy: "));
    assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("new-policy");
    browser.executeScript("document.getElementById('new-policy').value = arguments[0];", "name: browser-split\nversion: 1\n"
        + "include: ['shop.*']\nrules:\n  - name: split\n    tables: [shop.orders]\n    partition: {key-hash: 3}\n");
    browser.findElement(By.id("create-submit")).click();
    waiting().until(ExpectedConditions.textToBe(By.id("create-message"),
        "group browser-split created with 3 partitions"));
    assertThat(visible("group-browser-split").getText()).contains("browser-split — 3 partitions, 2 replicas");
    browser.executeScript("document.getElementById('create-message').scrollIntoView({block: 'center'});");
    screenshot("create-group-policy");
    assertThat(api.send("DELETE", "/api/v1/groups/browser-split", null,
        api.get("/api/v1/groups/browser-split").body().get("version").asText()).status()).isEqualTo(204);
  }

  @Test
  void aViewerSeesTheGroupsButNoWayToChangeThem() throws Exception {
    ApiClient admin = grid.loggedInAdmin();
    assertThat(admin.send("POST", "/api/v1/users", "{\"name\":\"vic\",\"role\":\"viewer\",\"password\":\"viewer-password-1\"}").status())
        .isEqualTo(201);
    logIn("vic", "viewer-password-1");
    browser.findElement(By.id("nav-groups")).click();
    visible("group-orders");
    await().atMost(PATIENCE).untilAsserted(() -> assertThat(leadersShown()).hasSize(4));
    assertThat(browser.findElements(By.cssSelector("#groups button"))).as("only reading: parked changes and snapshot progress")
        .allSatisfy(b -> assertThat(b.getText()).isIn("Parked changes…", "Snapshot progress…"));
    assertThat(browser.findElement(By.id("create-group")).isDisplayed()).isFalse();
    assertThat(browser.findElement(By.id("who-name")).getText()).isEqualTo("vic (viewer)");
    screenshot("groups-viewer");
    grid.parkedTarget();
    browser.findElement(By.id("show-parked-orders")).click();
    waiting().until(d -> !d.findElement(By.id("parked-summary")).getText().isEmpty());
    assertThat(browser.findElement(By.id("parked-actions")).isDisplayed()).as("no replay or discard for a viewer").isFalse();
    assertThat(browser.findElements(By.cssSelector("#parked button"))).isEmpty();

    browser.findElement(By.id("logout")).click();
    visible("login-page");
    assertThat(browser.manage().getCookieNamed(Api.COOKIE)).isNull();
  }

  @Test
  void aResetGoesThroughADryRunAndTheNextLeaderRestartsFromIt() throws Exception {
    expectedConsoleErrors.add("/reset - Failed to load resource: the server responded with a status of 409");
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    click("pause-orders-0");
    visible("resume-orders-0");
    await().atMost(PATIENCE).until(() -> !grid.leaders.containsKey(0));
    try {
      click("reset-orders-0");
      WebDriverWait wait = waiting();
      wait.until(ExpectedConditions.attributeToBe(By.id("reset-scn"), "value", "1000"));
      assertThat(visible("reset-current").getText()).contains("Checkpoint now: 1000").contains("paused");
      WebElement scn = browser.findElement(By.id("reset-scn"));
      scn.clear();
      scn.sendKeys("950", Keys.ENTER); // Enter runs the dry run
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-plan-table"), "replay"));
      assertThat(browser.findElement(By.id("reset-plan-table")).getText()).contains("From SCN 1000").contains("To SCN 950")
          .contains("SCN distance 50");
      assertThat(browser.findElement(By.id("reset-warnings")).getText()).contains("applied again");
      screenshot("reset-dry-run");

      // to a time: the first commit at or after it, from the commit times of the relay's buffer
      List<TestGrid.Window> windows = grid.relayWindows(10);
      TestGrid.Window before = windows.get(windows.size() - 2);
      TestGrid.Window first = windows.get(windows.size() - 1);
      new Select(browser.findElement(By.id("reset-to"))).selectByValue("time");
      WebElement time = visible("reset-time");
      time.clear();
      time.sendKeys(first.commitTime().toString(), Keys.ENTER);
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-plan-table"), "First commit at or after it"));
      assertThat(browser.findElement(By.id("reset-plan-table")).getText()).contains("SCN " + Long.toUnsignedString(first.scn()))
          .contains("To SCN " + Long.toUnsignedString(before.scn())).contains("Time asked " + first.commitTime());
      screenshot("reset-time-dry-run");

      // to a fresh snapshot: the stream resumes at the relays' newest SCN and every table is loaded again
      grid.parkedTarget(); // the group's consumer file, whose onEvicted: snapshot says its consumers can
      new Select(browser.findElement(By.id("reset-to"))).selectByValue("snapshot");
      browser.findElement(By.id("reset-dry-run")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-plan-table"), "every table loaded again"));
      assertThat(browser.findElement(By.id("reset-warnings")).getText()).contains("loaded again from its first chunk");
      screenshot("reset-snapshot-dry-run");
      new Select(browser.findElement(By.id("reset-to"))).selectByValue("scn");
      browser.findElement(By.id("reset-dry-run")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-plan-table"), "To SCN 950"));

      // another operator asks for a different reset meanwhile: confirming the old dry run is refused with the reason
      ApiClient other = grid.loggedInAdmin();
      JsonNode theirs = other.send("POST", "/api/v1/groups/orders/partitions/0/reset", "{\"to\":\"scn\",\"scn\":\"990\"}").body();
      assertThat(other.send("POST", "/api/v1/groups/orders/partitions/0/reset", "{\"to\":\"scn\",\"scn\":\"990\",\"dryRun\":false}",
          theirs.get("version").asText()).status()).isEqualTo(202);
      browser.findElement(By.id("reset-confirm")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-message"), "changed since the dry run"));
      screenshot("reset-stale");

      browser.findElement(By.id("reset-dry-run")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-warnings"), "replaces the reset to 990"));
      browser.findElement(By.id("reset-confirm")).click();
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reset-message"), "reset to 950 recorded"));
      assertThat(browser.findElement(By.id("reset-current")).getText()).contains("reset to 950 (asked by admin)");
    } finally {
      click("resume-orders-0");
    }
    await().atMost(PATIENCE).until(() -> grid.leaders.containsKey(0));
    assertThat(grid.checkpoint(0)).isEqualTo(950);
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
      browser.findElement(By.id("refresh")).click();
      assertThat(cellText(0, "tr")).contains("950");
    });
    grid.putBackCheckpoint(0);
  }

  @Test
  void theTopologyShowsEachRelaysBufferAndHealthAndDisablesAnInstance() throws Exception {
    asAdmin();
    WebDriverWait wait = waiting();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("relay-status"), "READY"));
    String relays = browser.findElement(By.id("relay-status")).getText();
    assertThat(relays).contains("relay1").contains("shop").contains("UP").contains(" … ");
    screenshot("relays");

    click("disable-c2");
    visible("enable-c2");
    try {
      await().atMost(PATIENCE).untilAsserted(() -> assertThat(grid.leaders.values()).containsOnly("c1").hasSize(4));
      assertThat(browser.findElement(By.id("instances")).getText()).containsPattern("c2 .* no ");
    } finally {
      click("enable-c2");
    }
    visible("disable-c2");
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);
  }

  @Test
  void theGroupsPageChartsAppliedEventsPerSecond() throws Exception {
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    visible("rate-orders");
    long[] applied = {0};
    await().atMost(PATIENCE).pollInterval(Duration.ofMillis(300)).untilAsserted(() -> {
      applied[0] += 120;
      grid.publishApplied(2, applied[0]);
      browser.findElement(By.id("refresh")).click();
      // read in one script: the page re-renders its charts on every refresh
      Object points = browser.executeScript("const c = document.getElementById('rate-orders'); return c ? c.dataset.points : null;");
      assertThat(points == null ? 0 : Integer.parseInt((String) points)).isPositive();
    });
    await().atMost(PATIENCE).until(() -> browser.executeScript(
        "const c = document.getElementById('rate-orders'); if (!c || !c.dataset.points) return false; c.scrollIntoView(); return true;")
        .equals(Boolean.TRUE));
    screenshot("groups-rate");
  }

  @Test
  void aChangeBasedOnAStalePageIsRefusedWithTheReason() throws Exception {
    expectedConsoleErrors.add("/api/v1/groups/orders - Failed to load resource: the server responded with a status of 409");
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    click("edit-orders");
    WebDriverWait wait = waiting();
    wait.until(ExpectedConditions.attributeToBe(By.id("edit-replicas"), "value", "2"));
    // another operator pauses a partition meanwhile: the group's version changes
    ApiClient other = grid.loggedInAdmin();
    assertThat(other.send("POST", "/api/v1/groups/orders/partitions/1/pause", "{}").status()).isEqualTo(200);
    try {
      WebElement replicas = browser.findElement(By.id("edit-replicas"));
      replicas.clear();
      replicas.sendKeys("1", Keys.ENTER);
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("edit-message"), "was changed since you loaded it"));
      assertThat(browser.findElement(By.id("edit-message")).getText()).contains("partitions [1] paused");
      screenshot("group-stale");
    } finally {
      assertThat(other.send("POST", "/api/v1/groups/orders/partitions/1/resume", "{}").status()).isEqualTo(200);
    }
    try (io.gridway.cluster.ClusterAdmin admin = new io.gridway.cluster.ClusterAdmin(grid.zk, grid.cluster)) {
      assertThat(admin.groups().get("orders").replicas()).as("nothing changed").isEqualTo(2);
    }
    await().atMost(PATIENCE).until(() -> grid.leaders.size() == 4);
  }

  @Test
  void aGroupsParkedChangesShowTheirReason() throws Exception {
    grid.park(91, "id=91", "value too long for column v (varchar 40)");
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    click("show-parked-orders");
    waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("parked"),
        "value too long for column v (varchar 40)"));
    assertThat(browser.findElement(By.id("parked")).getText()).contains("id=91").contains("shop.t").contains("INSERT");
    long id = grid.loggedInAdmin().get("/api/v1/groups/orders/parked").body().get("rows").findParents("key").stream()
        .filter(r -> r.get("key").asText().equals("id=91")).findFirst().orElseThrow().get("id").asLong();
    WebDriverWait wait = waiting();
    // this row holds no frames the applier could apply: replayed, it stays parked and the page says why
    click("parked-replay-" + id);
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("parked-message"), "replayed 0 of 1 parked change; still parked: shop.t id=91"));
    screenshot("parked");
    click("parked-discard-" + id);
    WebElement confirm = visible("parked-discard-confirm");
    assertThat(confirm.getText()).isEqualTo("Discard the parked changes of shop.t id=91 for good");
    assertThat(browser.findElement(By.id("parked")).getText()).as("nothing discarded before the confirmation").contains("id=91");
    confirm.click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("parked-message"), "discarded 1 parked change"));
    wait.until(d -> !d.findElement(By.id("parked")).getText().contains("id=91"));
    assertThat(Files.readString(grid.stateDir.resolve("audit.log"))).contains("\"action\":\"parked.discard\"");
    // the same target holds the checkpoints, and with them each partition's snapshot progress
    click("show-snapshot-orders");
    wait.until(d -> !d.findElement(By.id("snapshot-summary")).getText().isEmpty());
    assertThat(browser.findElement(By.id("snapshot-summary")).getText()).contains("Tables: shop.t, shop.u.");
    assertThat(browser.findElements(By.cssSelector("#snapshot tbody tr"))).hasSize(4);
    click("snapshot-close"); // open, it reads the target every 5 s: not during the other tests
  }

  @Test
  void anOperatorAsksALoadAgainThenPausesAndCancelsItInTheSnapshotPanel() throws Exception {
    asAdmin();
    browser.findElement(By.id("nav-groups")).click();
    click("show-snapshot-orders");
    expectedConsoleErrors.add("/snapshot - Failed to load resource"); // the target's cursors: none without a consumer file
    expectedConsoleErrors.add("/snapshot/pause - Failed to load resource: the server responded with a status of 409");
    WebDriverWait wait = waiting();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-loads-summary"),
        "No load asked by an operator is waiting or loading."));
    try {
      click("snapshot-pause");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-action-message"),
          "group orders: no snapshot to pause"));
      visible("snapshot-tables").sendKeys("shop.t, shop.u");
      browser.findElement(By.id("snapshot-partitions")).sendKeys("3");
      click("snapshot-start");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-action-message"),
          "Asked partition 3 to load again"));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-loads"), "shop.t, shop.u"));
      assertThat(browser.findElement(By.id("snapshot-loads")).getText()).contains("admin at ");
      click("snapshot-pause");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-action-message"),
          "Paused the load of partition 3."));
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-loads"), "paused"));
      screenshot("snapshot-on-demand");
      click("snapshot-cancel");
      wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("snapshot-loads"), "cancelled"));
      assertThat(GroupSnapshot.status(grid.zk, grid.cluster, "orders").get(3).request().cancelled()).isTrue();
      assertThat(Files.readString(grid.stateDir.resolve("audit.log"))).contains("\"action\":\"snapshot.start\"")
          .contains("\"action\":\"snapshot.cancel\"");
    } finally {
      click("snapshot-close");
      try (SnapshotRequests requests = SnapshotRequests.open(grid.zk, grid.cluster)) {
        requests.remove("orders", 3); // the test's leaders take no request up: leave none for the other tests
      }
    }
  }

  @Test
  void aPolicyIsValidatedAndARowExplainedInTheBrowser() throws Exception {
    asAdmin();
    browser.findElement(By.id("nav-policy")).click();
    // the text is set by script: typing 200 characters of YAML key by key takes seconds
    browser.executeScript("document.getElementById('policy-text').value = arguments[0];", AdminApiIT.POLICY);
    browser.findElement(By.id("policy-validate")).click();
    WebDriverWait wait = waiting();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("policy-output"), "policy.yaml: OK"));
    browser.findElement(By.id("policy-table")).sendKeys("shop.orders");
    browser.findElement(By.id("policy-row")).sendKeys("{\"id\":7,\"status\":\"PAID\"}");
    browser.findElement(By.id("policy-explain")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("policy-output"), "result: KEPT in partition 0"));
    screenshot("policy-explain");
  }
}

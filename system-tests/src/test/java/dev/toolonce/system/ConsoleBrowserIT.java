package dev.toolonce.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolonce.agent.publish.IntentPublisher;
import dev.toolonce.agent.task.DryRunCatalog;
import dev.toolonce.agent.task.Plan;
import dev.toolonce.agent.task.StepSpec;
import dev.toolonce.agent.task.TaskEngine;
import dev.toolonce.agent.task.TaskEvents;
import dev.toolonce.agent.task.TaskState;
import dev.toolonce.agent.task.TaskStore;
import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Power;
import dev.toolonce.schemas.signing.SigningKey;
import dev.toolonce.security.Role;
import dev.toolonce.testsupport.TestKeys;
import dev.toolonce.testsupport.TestStack;
import dev.toolonce.testsupport.TestTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 23: the operator console in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * driven by Selenium) against the running services. An operator signs in with a token, finds a call left in review by
 * a lost response, opens its timeline, resolves it (after cancelling once: nothing changes without a confirmation) and
 * sees the agent's step move; corrects the arguments of a saga's step held for approval (an approval of the old ones is
 * then refused as stale), approves it and sees it take effect once; replays a dead
 * letter whose cause was fixed and sees it answered once. Each screen is saved as a screenshot under
 * {@code target/console-screenshots/}.
 */
class ConsoleBrowserIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Path SHOTS = Path.of("target", "console-screenshots");
    private static Fixtures f;
    private static TaskEngine tasks;
    private static ChromeDriver browser;
    private static String operator;

    @BeforeAll
    static void start() throws Exception {
        f = new Fixtures(SystemStack.get());
        f.clearFaults();
        operator = f.loaded(TestTokens.create("console-operator", Role.OPERATOR, f.tenant));
        DataSource ds = TestStack.pooled(f.stack.jdbcUrl);
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        tasks = new TaskEngine(new TaskStore(jdbc, "agent"),
                new IntentPublisher("agent", Contract.INTENTS_TOPIC, "/agents/console-it", TestKeys.keyring()),
                new TaskEvents(jdbc, "agent", TaskEvents.DEFAULT_TOPIC, "/agents/console-it", TestKeys.keyring()), ds,
                new TransactionTemplate(new DataSourceTransactionManager(ds)), DryRunCatalog.of(List.of()));
        Files.createDirectories(SHOTS);
        browser = chromium();
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        f.clearFaults();
        f.close();
    }

    @Test
    void anOperatorResolvesAReviewApprovesAStepAndReplaysADeadLetterInTheConsole() throws Exception {
        // ---- what the operator will find: a task whose email was sent and its answer lost (email has no lookup),
        // a saga whose charge waits for approval, and an intent dead-lettered because its signing key was unknown
        String lostTask = f.tenant + "-lost";
        f.faults("email", "{\"failNext\":1}");
        tasks.submit(Plan.of(f.tenant, lostTask, StepSpec.of("notify", "email", "send",
                args(lostTask, "notify").put("to", "ops@example.com").put("subject", "booked"))));
        String heldTask = f.tenant + "-held";
        tasks.submit(Plan.of(f.tenant, heldTask, StepSpec.of("charge", "payments", "charge",
                args(heldTask, "charge").put("amount", 990).put("currency", "EUR")).withApproval()));
        SigningKey late = SigningKey.generate(EnumSet.of(Power.INTENT), Set.of(f.tenant), "console-late-agent");
        String deadMessage = f.sendSigned(f.payments("console-dead", 4300), late);
        await().atMost(WAIT).until(() -> "NEEDS_REVIEW".equals(callState("email", "send", key(lostTask, "notify"))));
        await().atMost(WAIT).until(() -> tasks.find(f.tenant, heldTask).orElseThrow().state() == TaskState.AWAITING_APPROVAL);

        // ---- sign in
        browser.get(f.stack.executorUrl + "/console/");
        type(By.id("token"), operator);
        shot("01-sign-in");
        browser.findElement(By.id("login")).click();
        screen("overview");
        assertThat(text(By.cssSelector("[data-figure=review-backlog] .value"))).isNotEqualTo("0");
        shot("02-overview");

        // ---- the review queue, then the call found by search, and its timeline
        browser.findElement(By.cssSelector("nav a[data-nav=reviews]")).click();
        screen("reviews");
        assertThat(text(By.id("reviews"))).contains(f.tenant + "/email/send/" + key(lostTask, "notify"));
        shot("03-review-queue");
        browser.findElement(By.cssSelector("nav a[data-nav=calls]")).click();
        screen("calls");
        type(By.id("search-tenant"), f.tenant);
        new Select(browser.findElement(By.id("search-state"))).selectByValue("NEEDS_REVIEW");
        browser.findElement(By.id("search")).click();
        await().atMost(WAIT).until(() -> browser.getCurrentUrl().contains("state=NEEDS_REVIEW"));
        screen("calls");
        WebElement row = await().atMost(WAIT).until(() -> browser.findElements(By.cssSelector("#calls tbody tr")),
                rows -> rows.size() == 1).get(0);
        shot("04-call-search");
        row.findElement(By.tagName("a")).click();
        screen("call");
        assertThat(text(By.id("call-state"))).isEqualTo("NEEDS_REVIEW");
        assertThat(text(By.id("timeline"))).contains("STARTED").contains("NEEDS_REVIEW").contains("offers no lookup");
        shot("05-call-timeline");

        // ---- resolve: cancelled once with the keyboard (nothing changes), then confirmed with a reason
        browser.findElement(By.id("resolve")).click();
        new Select(browser.findElement(By.id("resolve-action"))).selectByValue("commit");
        browser.findElement(By.id("resolve-reason")).sendKeys(Keys.ESCAPE);
        await().atMost(WAIT).until(() -> !browser.findElement(By.id("confirm")).isDisplayed());
        assertThat(callState("email", "send", key(lostTask, "notify"))).as("cancelled: nothing moved")
                .isEqualTo("NEEDS_REVIEW");
        String sent = f.effect(f.tenant + ":" + lostTask + ":notify").path("externalObjectId").asString();
        browser.findElement(By.id("resolve")).click();
        new Select(browser.findElement(By.id("resolve-action"))).selectByValue("commit");
        type(By.id("resolve-external-id"), sent);
        browser.findElement(By.id("confirm-ok")).click(); // no reason yet: the dialog stays, nothing is sent
        assertThat(browser.findElement(By.id("confirm")).isDisplayed()).isTrue();
        type(By.id("resolve-reason"), "found " + sent + " in the mail provider's log");
        shot("06-resolve-confirmation");
        browser.findElement(By.id("confirm-ok")).click();
        await().atMost(WAIT).until(() -> text(By.id("flash")).contains("is COMMITTED"));
        assertThat(text(By.id("call-state"))).isEqualTo("COMMITTED");
        assertThat(text(By.id("resolutions"))).contains("console-operator").contains("mail provider's log");
        shot("07-call-resolved");

        // ---- the agent's step moves: the task's page shows the step committed and the task succeeded
        browser.findElement(By.id("open-task")).click();
        screen("task");
        await().atMost(WAIT).until(() -> {
            browser.navigate().refresh();
            screen("task");
            return text(By.id("task-state")).equals("SUCCEEDED");
        });
        assertThat(text(By.cssSelector("[data-step=notify] .state"))).isEqualTo("COMMITTED");
        shot("08-task-after-resolution");
        assertThat(f.effect(f.tenant + ":" + lostTask + ":notify").path("requests").asLong()).as("sent once")
                .isEqualTo(1);

        // ---- the held charge: its amount corrected (a new key), a stale approval refused, then approved as shown
        browser.get(f.stack.executorUrl + "/console/#/tasks/" + heldTask + "?tenant=" + f.tenant);
        screen("task");
        assertThat(text(By.cssSelector("[data-step=charge] .state"))).isEqualTo("AWAITING_APPROVAL");
        shot("09-task-awaiting-approval");
        browser.findElement(By.cssSelector("button[data-edit=charge]")).click();
        WebElement edit = browser.findElement(By.id("edit-arguments"));
        edit.clear();
        edit.sendKeys("{\"opId\": \"" + f.tenant + ":" + heldTask + ":charge\", \"amount\": 995, \"currency\": \"EUR\"}");
        browser.findElement(By.id("confirm-ok")).click();
        await().atMost(WAIT).until(() -> text(By.id("flash")).contains("has new arguments"));
        String newKey = f.tenant + ":" + heldTask + ":charge:2";
        await().atMost(WAIT).until(() -> {
            screen("task");
            return text(By.id("steps")).contains("\"amount\": 995") || text(By.tagName("main")).contains(newKey);
        });
        java.net.http.HttpResponse<String> stale = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(f.stack.executorUrl + "/console/tasks-api/tasks/"
                        + heldTask + "/steps/charge/approve?tenant=" + f.tenant))
                        .header("Authorization", "Bearer " + operator).header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "{\"idempotencyKey\":\"" + key(heldTask, "charge") + "\"}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(stale.statusCode()).as("an approval of the arguments shown before the change: " + stale.body())
                .isEqualTo(409);
        browser.findElement(By.cssSelector("button[data-approve=charge]")).click();
        assertThat(text(By.id("confirm-body"))).contains("\"amount\": 995").contains(newKey);
        shot("10-approve-confirmation");
        browser.findElement(By.id("confirm-ok")).click();
        await().atMost(WAIT).until(() -> {
            browser.navigate().refresh();
            screen("task");
            return text(By.id("task-state")).equals("SUCCEEDED");
        });
        assertThat(text(By.cssSelector("[data-step=charge]"))).contains("approved by console-operator");
        assertThat(browser.executeScript("return [...document.getElementById('main').childNodes]"
                + ".filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('')"))
                .as("a part a screen leaves out is not shown as text").isEqualTo("");
        shot("11-task-approved");
        assertThat(f.charges(f.tenant + ":" + heldTask + ":charge")).as("charged once").isEqualTo(1);
        assertThat(f.row("SELECT arguments FROM executor.tool_call WHERE tenant_id = ? AND idempotency_key = ?",
                f.tenant, newKey).get("arguments")).as("the call made has the corrected amount").contains("995");
        assertThat(callState("payments", "charge", key(heldTask, "charge"))).as("nothing was asked with the old key")
                .isNull();

        // ---- the dead letter: its cause fixed (the key installed, a fresh intent proves it), replayed from the console
        TestKeys.add(late);
        provenHeld(late, "console-probe");
        browser.findElement(By.cssSelector("nav a[data-nav=dead-letters]")).click();
        screen("deadLetters");
        shot("12-dead-letter-topics");
        browser.findElement(By.linkText(Contract.INTENTS_DLQ_TOPIC)).click();
        screen("deadLetterTopic");
        WebElement letter = await().atMost(WAIT).until(() -> {
            List<WebElement> mine = browser.findElements(By.xpath("//table[@id='dead-letters']//tr[td[contains(., '"
                    + deadMessage + "')]]"));
            if (mine.isEmpty() && browser.findElement(By.id("more")).isDisplayed()) {
                browser.findElement(By.id("more")).click(); // this tenant's letters are further on
            }
            return mine.isEmpty() ? null : mine.get(0);
        }, java.util.Objects::nonNull);
        assertThat(letter.getText()).contains("UNKNOWN_SIGNING_KEY");
        String letterId = letter.findElement(By.tagName("a")).getText();
        letter.findElement(By.cssSelector("input[type=checkbox]")).click();
        browser.findElement(By.id("replay")).click();
        type(By.id("replay-reason"), "the agent's new key is installed");
        shot("13-replay-confirmation");
        browser.findElement(By.id("confirm-ok")).click();
        await().atMost(WAIT).until(() -> text(By.id("flash")).contains("1 replayed"));
        await().atMost(WAIT).until(() -> f.charges(f.tenant + ":console-dead") == 1);
        browser.get(f.stack.executorUrl + "/console/#/dead-letter/" + letterId);
        screen("deadLetter");
        assertThat(text(By.id("replays"))).contains("console-operator").contains("the agent's new key is installed");
        assertThat(text(By.id("value"))).contains("\"amount\":4300");
        shot("14-dead-letter-replayed");
        await().atMost(WAIT).until(() -> "COMMITTED".equals(callState("payments", "charge", "console-dead")));
        assertThat(f.charges(f.tenant + ":console-dead")).as("answered once").isEqualTo(1);

        // ---- the remaining screens
        browser.findElement(By.cssSelector("nav a[data-nav=tools]")).click();
        screen("tools");
        shot("15-paused-tools");
        browser.findElement(By.cssSelector("nav a[data-nav=audit]")).click();
        screen("audit");
        assertThat(text(By.id("audit-resolutions"))).contains("console-operator");
        assertThat(text(By.id("audit-replays"))).contains(Contract.INTENTS_DLQ_TOPIC);
        shot("16-audit");
        browser.findElement(By.id("logout")).click();
        assertThat(browser.findElement(By.id("token")).isDisplayed()).as("signed out").isTrue();
    }

    private static void provenHeld(SigningKey key, String probe) {
        provenHeld(f, key, probe);
    }

    /**
     * Returns once the executor holds {@code key}, which was just added to the keyring (it re-reads the file within
     * half a second): a probe charge signed with it is sent again until one is taken and charged — once, whatever
     * the number of probes, as they share their idempotency key; the ones sent too early are dead-lettered.
     */
    static void provenHeld(Fixtures f, SigningKey key, String probe) {
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(2)).until(() -> {
            if (f.charges(f.tenant + ":" + probe) == 1) {
                return true;
            }
            f.sendSigned(f.payments(probe, 1), key);
            return false;
        });
    }

    private static ChromeDriver chromium() {
        Path binary = Path.of("/usr/bin/chromium");
        Path driver = Path.of("/usr/bin/chromedriver");
        assertThat(binary).as("Debian's chromium: apt-get install chromium chromium-driver (README, Setup)").exists();
        assertThat(driver).as("Debian's chromium-driver: apt-get install chromium chromium-driver").exists();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binary.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1300,1800");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** Waits until the console shows {@code name}, loaded. */
    private static void screen(String name) {
        try {
            await().atMost(WAIT).until(() -> !browser.findElements(By.cssSelector("main[data-screen='" + name + "']"))
                    .isEmpty());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            String shown;
            try {
                shot("failed-waiting-for-" + name);
                shown = browser.getCurrentUrl() + "\n" + browser.findElement(By.tagName("body")).getText();
            } catch (IOException | RuntimeException other) {
                shown = "(the page could not be read: " + other + ")";
            }
            throw new AssertionError("the console did not show screen " + name + "; it shows:\n" + shown, e);
        }
    }

    private static String text(By by) {
        return browser.findElement(by).getText();
    }

    private static void type(By by, String text) {
        // the page's script renders what it shows: wait for the field rather than assume it is there yet
        WebElement e = await().atMost(WAIT).until(() -> browser.findElements(by), l -> !l.isEmpty()).get(0);
        e.clear();
        e.sendKeys(text);
    }

    private static void shot(String name) throws IOException {
        Files.write(SHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    private static String callState(String tool, String operation, String key) throws Exception {
        return f.row("SELECT state FROM executor.tool_call WHERE tenant_id = ? AND tool = ? AND operation = ? "
                + "AND idempotency_key = ?", f.tenant, tool, operation, key).get("state");
    }

    private static String key(String task, String step) {
        return f.tenant + ":" + task + ":" + step + ":1";
    }

    private static ObjectNode args(String task, String step) {
        return JsonNodeFactory.instance.objectNode().put("opId", f.tenant + ":" + task + ":" + step);
    }
}

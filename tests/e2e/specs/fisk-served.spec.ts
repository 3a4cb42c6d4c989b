import { connect, headers, type Msg } from "@nats-io/transport-node";
import { BackendClient } from "../../../src/core/backend/backend-client.ts";
import { DEMO_TOOLKIT } from "../../../src/core/serving/demo-toolkit.ts";
import { toolkitToFile } from "../../../src/core/serving/toolkit/toolkit-text.ts";
import { expect, test } from "../fixtures.ts";
import { FiskPage } from "../pages/fisk-page.ts";

/**
 * The console's fisk-ai tool calls and tasks against Patchbay's own served demo agent, on the
 * app's nats-server: the agent over TCP from the backend, the page over WebSocket.
 */

const AGENT = "patchbay-demo";

test.describe("fisk-ai calls to the served demo agent", () => {
  let backend: BackendClient;

  test.beforeEach(async ({ app }) => {
    backend = new BackendClient({ fetch, token: app.token, baseUrl: app.origin });
    await backend.call("POST", "/serve/nats/stop", {});
  });

  test.afterEach(async () => {
    // The backend outlives this spec: leave nothing serving.
    await backend.call("POST", "/serve/nats/stop", {}).catch(() => undefined);
  });

  const serve = (options: Record<string, unknown> = {}) => backend.call("POST", "/serve/nats/start", { keepaliveMs: 60_000, ...options });

  test("every outcome has its own headline, colour and evidence: success, exit code, is_error, idle timeout, capacity, cancelled", async ({ page, app }) => {
    await serve({ concurrency: 1 });
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);

    await fisk.call("echo", '{"message": "hello"}');
    await fisk.expectOutcome("success: the tool ran in process", "ok");
    await expect(fisk.evidence).toContainText("exec");

    await fisk.openTab("Agents");
    await fisk.call("fail", '{"exit_code": 0}');
    await fisk.expectOutcome("success: exit code 0", "ok");

    await fisk.chooseTool("fail", '{"exit_code": 3}');
    await fisk.send();
    await fisk.expectOutcome("exit code 3", "bad");
    await expect(fisk.evidence.getByRole("row").filter({ hasText: "exec.exit_code" })).toContainText("tool.reply #2");
    await expect(fisk.evidence.getByRole("row").filter({ hasText: "exec.exit_code" })).toContainText("3");
    // The result stays, marked stale, once another tool is chosen.
    await fisk.chooseTool("echo");
    await expect(page.getByTestId("tool-outcome-stale")).toHaveText("Stale: the tool is now echo; this result is from fail.");

    // An input the schema refuses is held back first; sent anyway, the tool's own refusal is is_error.
    await fisk.toolInput.replaceText("{}");
    await fisk.send();
    const warning = page.getByRole("alert", { name: "Input does not fit the schema" });
    await expect(warning).toContainText("message");
    await expect(fisk.outcome).toHaveText("exit code 3");
    await warning.getByRole("button", { name: "Send anyway" }).click();
    await fisk.expectOutcome("is_error: the tool did not run cleanly", "bad");
    await expect(page.getByTestId("tool-outcome-detail")).toHaveText('"message" must be a string');

    // A silent tool past a short idle limit; it keeps the agent's only slot, so the next call is refused.
    await fisk.chooseTool("slow", '{"seconds": 4}');
    await fisk.callForm.getByLabel("Idle timeout (s)").fill("1");
    await fisk.send();
    await fisk.expectOutcome("idle timeout: nothing for 1 s", "bad");
    await expect(fisk.evidence).toContainText("ack #1");
    await fisk.chooseTool("echo", '{"message": "busy?"}');
    await fisk.send();
    await fisk.expectOutcome("refused: the agent is at capacity", "warn");
    await expect(fisk.evidence.getByRole("row").filter({ hasText: "code" })).toContainText('"capacity"');

    // Cancelled before the reply: amber, and never a success.
    await fisk.callForm.getByLabel("Idle timeout (s)").fill("120");
    await expect(async () => {
      await fisk.chooseTool("slow", '{"seconds": 3}');
      await fisk.send();
      await expect(fisk.timeline.locator('li[data-disposition="ack"]')).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 8000 });
    await fisk.callForm.getByRole("button", { name: "Cancel" }).click();
    await fisk.expectOutcome("cancelled (no reply)", "warn");
  });

  test("not available, micro 400 and no responders; a gone agent keeps its card but loses its Call buttons, and Rediscover waits for its answer", async ({ page, app, status }) => {
    await serve();
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);

    // The card is stale: the agent now serves a toolkit without fail.
    await backend.call("POST", "/serve/nats/stop", {});
    await serve({ toolkit: toolkitToFile({ ...DEMO_TOOLKIT, tools: DEMO_TOOLKIT.tools.filter((t) => t.name !== "fail") }) });
    await fisk.call("fail", '{"exit_code": 1}');
    await fisk.expectOutcome("not available: the agent does not serve this tool", "bad");
    await expect(fisk.evidence).toContainText("accepted");

    // Over the agent's body cap: refused with micro 400 in headers, before any reply set.
    await fisk.chooseTool("echo", JSON.stringify({ message: "x".repeat(800_000) }));
    await fisk.send();
    await fisk.expectOutcome("refused with micro error 400", "bad");
    await expect(page.getByTestId("tool-outcome-detail")).toContainText("request exceeds 786432 bytes");
    await expect(fisk.evidence).toContainText("Nats-Service-Error-Code");

    await backend.call("POST", "/serve/nats/stop", {});
    await fisk.toolInput.replaceText('{"message": "anyone?"}');
    const started = Date.now();
    await fisk.send();
    await fisk.expectOutcome("no responders (503): nothing serves this subject", "bad");
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(page.getByTestId("call-agent-gone")).toContainText("looks gone");

    await fisk.openTab("Agents");
    await expect(page.getByTestId("agent-gone")).toContainText("a tool call got no responders");
    await expect(page.getByRole("list", { name: "Tools" }).getByRole("button", { name: /^Call / })).toHaveCount(0);

    // The rediscovery is held on the wire until checked: meanwhile the button says so and takes no second click.
    const nc = await connect({ servers: status.nats.url ?? "" });
    try {
      const subject = `choria.fisk-ai.discovery.${AGENT}`;
      let held: Msg | undefined;
      nc.subscribe(subject, {
        max: 1,
        callback: (_err, msg) => {
          held = msg;
        },
      });
      await nc.flush();
      const gone = page.getByTestId("agent-gone");
      await gone.getByRole("button", { name: "Rediscover" }).click();
      await expect.poll(() => held !== undefined, { message: "the held discovery request arrived" }).toBe(true);
      await expect(gone.getByRole("button", { name: "Rediscovering…" })).toBeDisabled();
      // Released: the agent, served now, answers the request as it came, and its reply goes back as the answer.
      await serve();
      const request = held!;
      const answer = await nc.request(subject, request.data, { timeout: 5000, ...(request.headers ? { headers: request.headers } : {}) });
      request.respond(answer.data, answer.headers ? { headers: answer.headers } : undefined);
      await expect(gone).toHaveCount(0);
    } finally {
      await nc.close();
    }
    await expect(page.getByRole("list", { name: "Tools" }).getByRole("button", { name: "Call echo" })).toBeVisible();
  });

  test("a micro 500 on the agent's tool subject is its own outcome, with the headers it came in", async ({ page, app, status }) => {
    await serve();
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);
    await backend.call("POST", "/serve/nats/stop", {});
    // The served agent refuses only with 400; a micro handler that fails with 500 stands in for it.
    const nc = await connect({ servers: status.nats.url ?? "" });
    try {
      nc.subscribe(`choria.fisk-ai.tool.${AGENT}`, {
        callback: (_err, msg) => {
          const h = headers();
          h.set("Nats-Service-Error-Code", "500");
          h.set("Nats-Service-Error", "internal error: the handler failed");
          msg.respond(new Uint8Array(0), { headers: h });
        },
      });
      await nc.flush();
      await fisk.call("echo", '{"message": "hello"}');
      await fisk.expectOutcome("refused with micro error 500", "bad");
      await expect(page.getByTestId("tool-outcome-detail")).toContainText("internal error: the handler failed");
      await expect(fisk.evidence.getByRole("row").filter({ hasText: "Nats-Service-Error-Code" })).toContainText("500");
    } finally {
      await nc.close();
    }
  });

  test("with the agent stopped and no tap, a task ends at once with no responders over WebSocket; Find agents drops a stopped agent and marks its card gone", async ({ page, app }) => {
    await serve();
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);
    await backend.call("POST", "/serve/nats/stop", {});

    await fisk.openTab("Tasks");
    const form = page.getByRole("form", { name: "Task request" });
    await form.getByLabel("Agent identity").fill(AGENT);
    await form.getByRole("textbox", { name: "Prompt", exact: true }).fill("anyone there?");
    const started = Date.now();
    await form.getByRole("button", { name: "Start task" }).click();
    await expect(page.getByTestId("task-end")).toContainText("no such agent: nothing serves its task subject (503)", { timeout: 8000 });
    expect(Date.now() - started, "the task path hears NATS's 503 at once, not after the idle limit").toBeLessThan(5000);
    await fisk.openTab("Agents");
    await expect(page.getByTestId("agent-gone")).toContainText("a task found nothing serving it");

    // Back, rediscovered and listed; stopped again, the next listing leaves it out and marks its card.
    await serve();
    await page.getByTestId("agent-gone").getByRole("button", { name: "Rediscover" }).click();
    await expect(page.getByTestId("agent-gone")).toHaveCount(0);
    const live = page.getByRole("table", { name: "Live agents" });
    await page.getByRole("button", { name: "Find agents" }).click();
    await expect(live.getByRole("row").filter({ hasText: AGENT })).toHaveCount(1);
    await backend.call("POST", "/serve/nats/stop", {});
    await page.getByRole("button", { name: "Find agents" }).click();
    await expect(live.getByRole("row").filter({ hasText: AGENT })).toHaveCount(0);
    await expect(page.getByTestId("agent-gone")).toContainText("not among the live agents $SRV.INFO listed");
    await expect(page.getByRole("list", { name: "Tools" }).getByRole("button", { name: /^Call / })).toHaveCount(0);
  });

  test("with a tap holding the subjects, a call and a task to a stopped agent still end at once with no responders", async ({ page, app }) => {
    await serve();
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);
    // The tap subscribes choria.fisk-ai.>: NATS sees interest on the subject and sends no 503.
    await fisk.openTab("Tap");
    await page.getByRole("button", { name: "Start tap" }).click();
    await expect(page.getByTestId("tap-count")).toContainText("Tapping");
    await backend.call("POST", "/serve/nats/stop", {});

    await fisk.openTab("Agents");
    const started = Date.now();
    await fisk.call("echo", '{"message": "hello?"}');
    await fisk.expectOutcome("no responders: the agent is not running", "bad");
    expect(Date.now() - started).toBeLessThan(8000);
    await expect(fisk.evidence).toContainText(`$SRV.PING.${AGENT}`);

    await fisk.openTab("Tasks");
    const form = page.getByRole("form", { name: "Task request" });
    await form.getByLabel("Agent identity").fill(AGENT);
    await form.getByRole("textbox", { name: "Prompt", exact: true }).fill("anyone there?");
    await form.getByRole("button", { name: "Start task" }).click();
    await expect(page.getByTestId("task-end")).toContainText(`nothing answers $SRV.PING.${AGENT} (503)`, { timeout: 8000 });
  });

  test("every flow of the Tasks tab works against the served agent: a tool run, a follow-up, an approval answered, a cancel", async ({ page, app }) => {
    await serve();
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.openTab("Tasks");
    const form = page.getByRole("form", { name: "Task request" });
    const prompt = form.getByRole("textbox", { name: "Prompt", exact: true });
    const events = page.getByRole("list", { name: "Events" });
    await form.getByLabel("Agent identity").fill(AGENT);
    await prompt.fill('run add {"a":2,"b":3}');
    await form.getByRole("button", { name: "Start task" }).click();
    await expect(page.getByTestId("task-end")).toHaveText("finished: end_turn");
    await expect(page.getByTestId("task-served")).toContainText(`${AGENT} serves discovery, tool, task`);
    await expect(page.getByTestId("task-instance")).toHaveText(/^pb-[0-9A-Za-z]{8}$/);
    await expect(events.locator('li[data-kind="tool"]')).toContainText("tool call add");
    await expect(events.locator('li[data-kind="tool"] pre')).toHaveText("5");

    await prompt.fill("and thanks");
    await form.getByRole("button", { name: "Follow up" }).click();
    await expect(page.getByTestId("task-end")).toHaveText("finished: end_turn");
    await expect(events.locator('li[data-kind="text"]')).toContainText("and thanks");

    await prompt.fill('run confirm {"action":"drop the table"}');
    await form.getByRole("button", { name: "Start task" }).click();
    const question = page.getByRole("form", { name: /^Question / });
    await expect(question).toContainText('Run confirm {"action":"drop the table"}? (ai:confirm)');
    await question.getByRole("radio", { name: "once" }).check();
    await question.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByTestId("task-end")).toHaveText("finished: end_turn");
    await expect(events.locator('li[data-kind="tool"] pre')).toHaveText("done: drop the table");

    await prompt.fill('run slow {"seconds": 60}');
    await form.getByRole("button", { name: "Start task" }).click();
    await expect(events.locator('li[data-kind="tool"]')).toContainText("waiting for its result");
    await form.getByRole("button", { name: "Cancel task" }).click();
    await expect(page.getByTestId("task-end")).toHaveText("ended with an error (code canceled): the task was cancelled: cancelled from the Patchbay console");
  });

  test("sleep's progress arrives as event.status messages in the reply set", async ({ page, app }) => {
    await serve();
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.discover(AGENT);
    await fisk.call("sleep", '{"seconds": 2}');
    await expect(page.getByTestId("tool-running")).toContainText("progress: 1 of 2 s");
    await fisk.expectOutcome("success: the tool ran in process", "ok");
    const progress = fisk.timeline.locator('li[data-disposition="progress"]');
    await expect(progress).toHaveCount(2);
    await expect(progress.first()).toContainText("event.status");
    await expect(progress.last()).toContainText("2 of 2 s");
    await expect(fisk.timelineVerdict("progress").first()).toHaveText("valid");
  });

  test("the Request tab stops showing a subject problem once the subject is fixed, and marks a reply stale once the request changes", async ({ page, app }) => {
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.nats.subject.fill("choria fisk");
    await fisk.nats.send.click();
    const request = page.getByRole("form", { name: "Request" });
    await expect(request.getByRole("alert")).toContainText("cannot contain spaces");
    await fisk.nats.subject.fill("choria.fisk-ai.discovery.nobody");
    await expect(request.getByRole("alert")).toHaveCount(0);
    await fisk.nats.send.click();
    await expect(fisk.nats.replyTitle).toHaveText("No responders (503)");
    const reply = page.getByRole("region", { name: "Reply" });
    await expect(reply.getByTestId("stale-note")).toHaveCount(0);
    await fisk.nats.subject.fill("choria.fisk-ai.discovery.somebody-else");
    await expect(reply.getByTestId("stale-note")).toHaveText("Stale: the subject changed since this was shown.");
    await fisk.nats.subject.fill("choria.fisk-ai.discovery.nobody");
    await expect(reply.getByTestId("stale-note")).toHaveCount(0);
  });
});

import { startFiskPeer, type FiskPeer } from "../../helpers/fisk-peer/index.ts";
import { expect, test } from "../fixtures.ts";
import { FiskPage } from "../pages/fisk-page.ts";

/**
 * The fisk-ai client in Chromium against a wire-level Gen 2 peer on the app's own nats-server:
 * the peer speaks TCP, the browser WebSocket, both to the same server.
 */

const SECRET = "e2eConversationToken0123456789";

test.describe("fisk-ai agents from the browser", () => {
  let peer: FiskPeer;
  const identity = `e2e-fisk-${Date.now().toString(36)}`;

  test.beforeAll(async ({ status }) => {
    expect(status.nats.mode, "the backend should have started its own nats-server").toBe("managed");
    peer = await startFiskPeer(status.nats.url ?? "", {
      identity,
      model: "e2e-model",
      keepaliveMs: 150,
      tools: [
        {
          name: "stream_report",
          description: "Reports on one JetStream stream\n\nTags: nats, streams",
          input_schema: { type: "object", properties: { stream: { type: "string" } }, required: ["stream"] },
          behavior: { read_only: true, idempotent: true },
          script: { keepalives: 1, exitCode: 1, output: "stream ORDERS not found\n" },
        },
      ],
      task: {
        ack: { conversation_token: SECRET },
        steps: [
          { kind: "event", event: "text", block: { text: "Looking at the streams." } },
          { kind: "elicit", question: { kind: "confirm", question: "Delete stream ORDERS?" }, windowMs: 30_000 },
        ],
        end: { kind: "result", stop_reason: "end_turn", text: "Done: ORDERS deleted." },
      },
    });
  });

  test.afterAll(async () => {
    await peer?.stop();
  });

  test("find and discover the peer, then call its tool: ack, keepalive, terminal, exit code 1", async ({ page, app }) => {
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.openTab("Agents");

    await page.getByRole("button", { name: "Find agents" }).click();
    const live = page.getByRole("table", { name: "Live agents" });
    await expect(live).toContainText(identity);

    await live.getByRole("button", { name: `Discover ${identity}` }).click();
    await expect(page.getByTestId("agent-summary")).toContainText(`Card of ${identity}`);
    await expect(page.getByTestId("agent-generation")).toHaveText("Gen 2");
    await expect(page.getByTestId("agent-rtt")).toHaveText(/^\d[\d,]*\.\d ms$/);
    const tools = page.getByRole("list", { name: "Tools" });
    await expect(tools).toContainText("stream_report");
    await expect(tools.getByRole("list", { name: "Behaviour" })).toContainText("read-only");
    await expect(tools.getByRole("list", { name: "Behaviour" })).toContainText("destructive?");
    // fisk-ai descriptions end with "\n\nTags: …": the line breaks show.
    await expect(tools.getByText(/Tags: nats, streams/)).toHaveCSS("white-space", "pre-wrap");

    await page.getByRole("button", { name: "Validated", exact: true }).click();
    await expect(page.getByTestId("agent-verdict")).toContainText("valid");

    await page.getByRole("button", { name: "Decoded", exact: true }).click();
    await tools.getByRole("button", { name: "Call stream_report" }).click();
    await expect(fisk.tab("Tool call")).toHaveAttribute("aria-selected", "true");
    await fisk.toolInput.waitReady();
    await fisk.toolInput.replaceText('{"stream": "ORDERS"}');
    await page.keyboard.press("ControlOrMeta+Enter");

    await fisk.expectOutcome("exit code 1", "bad");
    await expect(fisk.timelineRow("ack")).toHaveCount(1);
    await expect(fisk.timelineRow("keepalive")).toHaveCount(1);
    await expect(fisk.timelineRow("terminal (final)")).toHaveCount(1);
    await expect(fisk.timeline.getByRole("listitem")).toHaveCount(3);
    await expect(fisk.timelineRow("ack")).toContainText("#1");
    await expect(fisk.timelineRow("terminal (final)")).toContainText("tool.reply");
    // Each message is checked in the validation worker; the verdict lands on its row.
    await expect(fisk.timelineVerdict("ack")).toHaveText("valid");
    await expect(fisk.timelineVerdict("terminal (final)")).toHaveText("valid");
    await expect(fisk.requestVerdict).toHaveText("valid");
    await expect(page.getByRole("region", { name: "Reply set" }).getByLabel("Tool output")).toContainText("stream ORDERS not found");

    const sent = await peer.waitForReceived((r) => r.kind === "tool");
    expect(JSON.parse(sent.text)).toMatchObject({ name: "stream_report", input: { stream: "ORDERS" } });
    await expect(page.getByTestId("status-frames")).not.toContainText(/^0 frames/);
  });

  test("a task streams an event, asks a question answered in the page, and ends with its result", async ({ page, app }) => {
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.openTab("Tasks");

    const form = page.getByRole("form", { name: "Task request" });
    await form.getByLabel("Agent identity").fill(identity);
    const prompt = form.getByRole("textbox", { name: "Prompt", exact: true });
    await prompt.fill("clean up the ORDERS stream");
    // The composer is kept by the page, not the panel: another tab and back loses nothing.
    await fisk.openTab("Tap");
    await expect(form).toHaveCount(0);
    await fisk.openTab("Tasks");
    await expect(prompt).toHaveValue("clean up the ORDERS stream");
    await expect(form.getByLabel("Agent identity")).toHaveValue(identity);
    await form.getByRole("button", { name: "Start task" }).click();

    const events = page.getByRole("list", { name: "Events" });
    await expect(events).toContainText("accepted");
    await expect(events).toContainText("conversation token received (hidden)");
    await expect(events).toContainText("Looking at the streams.");

    const question = page.getByRole("form", { name: /^Question / });
    await expect(question).toContainText("Delete stream ORDERS?");
    // A half-made answer survives a look at another tab.
    await question.getByLabel("no", { exact: true }).check();
    await fisk.openTab("Tap");
    await fisk.openTab("Tasks");
    await expect(question.getByLabel("no", { exact: true })).toBeChecked();
    await question.getByLabel("yes").check();
    await question.getByRole("button", { name: "Send answer" }).click();

    await expect(page.getByTestId("task-end")).toHaveText("finished: end_turn");
    await expect(events).toContainText("Done: ORDERS deleted.");
    await expect(question).toHaveCount(0);

    const answer = await peer.waitForReceived((r) => r.kind === "elicit" && r.text.includes("elicit.reply.confirm"));
    expect(JSON.parse(answer.text)).toMatchObject({ confirmed: true });

    // Every message, expanded: the token is still nowhere on the page.
    await page.getByText(/^Every message/).click();
    for (const details of await page.locator("ol[aria-label='Timeline'] details").all()) await details.locator("summary").click();
    await expect(page.getByText("•••").first()).toBeVisible();
    expect(await page.content()).not.toContain(SECRET);
  });

  test("raw mode sends an invalid message and shows the peer's empty-bodied refusal; tabs work from the keyboard", async ({ page, app }) => {
    const fisk = new FiskPage(page);
    await fisk.openConnected(app.url);
    await fisk.tab("Request").focus();
    await page.keyboard.press("ArrowRight");
    await expect(fisk.tab("Agents")).toHaveAttribute("aria-selected", "true");
    await expect(fisk.tab("Agents")).toBeFocused();
    await page.keyboard.press("Home");
    await expect(fisk.tab("Request")).toHaveAttribute("aria-selected", "true");

    const request = page.getByRole("form", { name: "Request" });
    await request.getByLabel("Read every reply").check();
    await fisk.nats.subject.fill(`choria.fisk-ai.tool.${identity}`);
    await request.getByRole("radio", { name: "Text" }).check();
    await request.getByRole("textbox", { name: "Payload" }).fill('{"protocol":"io.choria.fisk-ai.v1.nope"}');
    await request.getByLabel("Timeout (ms)").fill("300");
    await request.getByRole("button", { name: "Send request" }).click();

    const reply = page.getByRole("region", { name: "Reply" });
    await expect(reply.getByTestId("raw-end")).toContainText("1 reply, refused with a micro error");
    const row = reply.getByRole("list", { name: "Timeline" }).locator('li[data-disposition="refusal"]');
    await expect(row).toContainText("400");
    await row.locator("summary").click();
    await expect(row.getByLabel("Message 1", { exact: true })).toHaveText("(empty body)");
    await expect(row.getByRole("table", { name: "Headers of message 1" })).toContainText("Nats-Service-Error-Code");
  });
});

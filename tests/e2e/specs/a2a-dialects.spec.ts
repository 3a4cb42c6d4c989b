import { chunkText, startLegacyAgent, startSdkAgent, type LegacyAgent, type SdkAgent } from "../../helpers/a2a-peers/index.ts";
import { expect, test } from "../fixtures.ts";
import { A2aPage } from "../pages/a2a-page.ts";

/**
 * Every A2A dialect and binding end to end in Chromium, through the backend's relay: a streamed
 * artifact assembled from its chunks, and a slow streamed task canceled from Conversations, each
 * stream ending where its dialect says a stream ends (v0.x at `final: true`, v1.0 at a terminal
 * state). The OpenFang-like peer cannot stream or cancel by any dialect's method; its tests
 * assert how the workbench names that.
 */

type PeerName = "sdk" | "v01" | "v02";

interface DialectCase {
  readonly name: string;
  readonly peer: PeerName;
  /** Fetch the card asking for v1.0 (the SDK agent serves its v0.3 card otherwise). */
  readonly v10Card: boolean;
  /** The interface radio to talk through. */
  readonly radio: RegExp;
  /** How a stream of this dialect ends, in the workbench's words. */
  readonly end: string;
  /** The canceled state as the dialect spells it on the wire. */
  readonly canceledRaw: string;
}

const FINAL = "the stream ended at final: true";
const TERMINAL = "the stream ended at a terminal state";

const CASES: readonly DialectCase[] = [
  { name: "v0.1 JSON-RPC", peer: "v01", v10Card: false, radio: /^JSONRPC · v0\.1 /, end: FINAL, canceledRaw: "canceled" },
  { name: "v0.2 JSON-RPC", peer: "v02", v10Card: false, radio: /^JSONRPC · v0\.2\.x /, end: FINAL, canceledRaw: "canceled" },
  { name: "v0.3 JSON-RPC", peer: "sdk", v10Card: false, radio: /^JSONRPC · v0\.3 /, end: FINAL, canceledRaw: "canceled" },
  { name: "v0.3 HTTP+JSON", peer: "sdk", v10Card: false, radio: /^HTTP\+JSON · v0\.3 /, end: FINAL, canceledRaw: "TASK_STATE_CANCELLED" },
  { name: "v1.0 JSON-RPC", peer: "sdk", v10Card: true, radio: /^JSONRPC · v1\.0 /, end: TERMINAL, canceledRaw: "TASK_STATE_CANCELED" },
  { name: "v1.0 HTTP+JSON", peer: "sdk", v10Card: true, radio: /^HTTP\+JSON · v1\.0 /, end: TERMINAL, canceledRaw: "TASK_STATE_CANCELED" },
];

test.describe("A2A dialects end to end in the browser", () => {
  let sdk: SdkAgent;
  let v01: LegacyAgent;
  let v02: LegacyAgent;
  let openfang: LegacyAgent;
  const baseOf = (peer: PeerName): string => ({ sdk, v01, v02 })[peer].baseUrl;

  test.beforeAll(async () => {
    [sdk, v01, v02, openfang] = await Promise.all([
      startSdkAgent(),
      startLegacyAgent({ dialect: "0.1" }),
      startLegacyAgent({ dialect: "0.2" }),
      startLegacyAgent({ dialect: "0.1", quirks: "openfang" }),
    ]);
  });

  test.afterAll(async () => {
    await Promise.all([sdk?.close(), v01?.close(), v02?.close(), openfang?.close()]);
  });

  /** Opens the workbench, reads the case's card and picks its interface for `text`. */
  async function composeFor(a2a: A2aPage, appUrl: string, c: DialectCase, operation: string, text: string): Promise<void> {
    await a2a.open(appUrl);
    if (c.v10Card) await a2a.headers([["A2A-Version", "1.0"]]);
    await a2a.fetchCard(baseOf(c.peer));
    await expect(a2a.interfaceRadio(c.radio)).toBeVisible();
    await a2a.compose(operation, text);
    await a2a.interfaceRadio(c.radio).check();
    await a2a.operation.selectOption({ label: operation });
    await expect(a2a.interfaceRadio(c.radio)).toBeChecked();
  }

  for (const c of CASES) {
    test.describe(c.name, () => {
      test(`streams "chunks 3": the artifact is assembled, and ${c.end}`, async ({ page, app }) => {
        test.setTimeout(30_000);
        const a2a = new A2aPage(page);
        await composeFor(a2a, app.url, c, "Send and stream", "chunks 3");
        await a2a.send.click();
        await expect(a2a.streamEnd).toHaveText(c.end);
        await expect(a2a.failure).toHaveCount(0);
        await page.getByRole("button", { name: "Open in Conversations" }).click();
        await expect(a2a.taskState()).toHaveText("completed");
        await expect(a2a.task().getByTestId("a2a-artifact-text")).toHaveText(chunkText(1, 3) + chunkText(2, 3) + chunkText(3, 3));
        await expect(a2a.task()).toContainText("(3 chunks, complete)");
        await expect(a2a.timeline()).toContainText("(last chunk)");
        await expect(a2a.timeline().getByTestId("a2a-timeline-text").last()).toHaveText(c.end);
      });

      test(`cancels a streamed "slow 20000" from Conversations: canceled, and ${c.end}`, async ({ page, app }) => {
        test.setTimeout(40_000);
        const a2a = new A2aPage(page);
        await composeFor(a2a, app.url, c, "Send and stream", "slow 20000");
        await a2a.send.click();
        await a2a.view("Conversations");
        await expect(a2a.taskState()).toHaveText("working");
        await a2a.task().getByRole("button", { name: "Cancel" }).click();
        await expect(a2a.taskState()).toHaveText("canceled");
        await expect(a2a.task().getByRole("list", { name: "State steps" })).toContainText(c.canceledRaw);
        await expect(a2a.task().getByTestId("a2a-stream-failure")).toHaveCount(0);
        // The slow task's artifact never came: the cancel, not the 20 s, ended it.
        await expect(a2a.task().getByTestId("a2a-artifact-text")).toHaveCount(0);
        await a2a.view("Compose");
        await expect(a2a.streamEnd).toHaveText(c.end);
        await expect(a2a.failure).toHaveCount(0);
      });
    });
  }

  test.describe("v0.1 with OpenFang's quirks", () => {
    test("cannot stream: its send route answers a stream request with one bare task, and the workbench says so", async ({ page, app }) => {
      test.setTimeout(30_000);
      const a2a = new A2aPage(page);
      await a2a.open(app.url);
      await a2a.fetchCard(openfang.baseUrl);
      // The card claims streaming, at a URL with no POST route at all.
      await a2a.compose("Send and stream", "chunks 3");
      await a2a.send.click();
      await expect(a2a.failure).toContainText("HTTP 404");
      // Its real route takes any body and answers once the task is done, never as a stream.
      await a2a.typedInterface(openfang.rpcUrl, 'v0.1 ("Google A2A")', "JSON-RPC");
      await a2a.compose("Send and stream", "chunks 3");
      await a2a.send.click();
      await expect(a2a.status).toHaveText("HTTP 200");
      await expect(a2a.streamEnd).toHaveText("the agent answered with one JSON body, not an event stream");
      await a2a.view("Conversations");
      await expect(a2a.taskState()).toHaveText("completed");
      await expect(a2a.task().getByTestId("a2a-artifact-text")).toHaveCount(0);
    });

    test("cannot be canceled from Conversations: its id is chosen and told only once the blocking send returns", async ({ page, app }) => {
      test.setTimeout(30_000);
      const a2a = new A2aPage(page);
      await a2a.open(app.url);
      await a2a.fetchCard(openfang.baseUrl);
      await a2a.view("Compose");
      await a2a.typedInterface(openfang.rpcUrl, 'v0.1 ("Google A2A")', "JSON-RPC");
      await a2a.compose("Send a message", "slow 20000");
      await a2a.send.click();
      await expect(a2a.exchange.getByRole("status")).toContainText("waiting… 0 frame(s)");
      await a2a.view("Conversations");
      // Nothing has named the task yet, so Conversations has no task to cancel.
      await expect(page.getByRole("region", { name: "Conversations" })).toContainText("No conversations yet");
      await expect(page.getByRole("article", { name: /^Task / })).toHaveCount(0);
      await a2a.view("Compose");
      await page.getByRole("button", { name: "Stop", exact: true }).click();
      await expect(a2a.failure).toHaveText("aborted: stopped by you");
    });
  });
});

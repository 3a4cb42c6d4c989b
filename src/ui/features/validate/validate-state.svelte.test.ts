import { afterEach, describe, expect, it, vi } from "vitest";
import { inProcessWorker } from "./fake-worker.ts";
import { EDIT_DEBOUNCE_MS } from "./message-inspector.svelte.ts";
import { ValidateState } from "./validate-state.svelte.ts";
import { ValidationClient } from "./validation-client.ts";

const CAPTURE = ['{"ping":true,"n":1}', '{"ping":true,"n":"x"}', "nope", '{"fault":"f"}'].join("\n");

async function settle(state: ValidateState): Promise<void> {
  await vi.waitFor(() => expect(state.running).toBe(false));
}

function setup() {
  return new ValidateState(new ValidationClient(() => inProcessWorker()));
}

describe("ValidateState", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("validates pasted text into rows and counts, and filters them", async () => {
    const state = setup();
    state.pasteText = CAPTURE;
    state.validatePaste();
    expect(state.phase).toBe("running");
    await settle(state);
    expect(state.phase).toBe("done");
    expect(state.done).toBe(4);
    expect(state.rows.map((r) => r.status)).toEqual(["valid", "invalid", "unparseable", "error-response"]);
    expect(state.counts.byStatus).toEqual({ valid: 1, "error-response": 1, invalid: 1, unrecognised: 0, unparseable: 1 });
    expect(state.counts.byFamily.mcp).toBe(3);
    expect(state.inputs).toEqual([{ source: "pasted", format: "jsonl", messages: 4, notes: [] }]);
    state.setFilter("problems");
    expect(state.visible.map((r) => r.index)).toEqual([1, 2]);
  });

  it("opens the selected message with its markers, and re-checks edits after a pause", async () => {
    const state = setup();
    state.pasteText = CAPTURE;
    state.validatePaste();
    await settle(state);
    state.setFilter("invalid");
    state.select(0);
    const inspector = state.inspector;
    await vi.waitFor(() => expect(inspector.verdict?.status).toBe("invalid"));
    expect(state.selectedPosition).toBe(0);
    expect(inspector.text).toBe('{"ping":true,"n":"x"}');
    expect(inspector.markers).toEqual([{ pointer: "/n", message: expect.stringContaining('"n"') as string, severity: "error" }]);

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    inspector.edit('{"ping":true,"n":2}');
    expect(inspector.edited).toBe(true);
    // Until the edit is checked, the verdict on show is for the text before it, and its marks go.
    expect(inspector.verdictStale).toBe(true);
    expect(inspector.markers).toEqual([]);
    vi.advanceTimersByTime(EDIT_DEBOUNCE_MS - 1);
    expect(inspector.checking).toBe(false);
    vi.advanceTimersByTime(1);
    expect(inspector.checking).toBe(true);
    vi.useRealTimers();
    await vi.waitFor(() => expect(inspector.verdict?.status).toBe("valid"));
    expect(inspector.verdictStale).toBe(false);
    expect(inspector.markers).toEqual([]);

    inspector.revert();
    await vi.waitFor(() => expect(inspector.verdict?.status).toBe("invalid"));
    expect(inspector.edited).toBe(false);

    inspector.setOverride({ packId: "mcp/test", kindId: "fault" });
    await vi.waitFor(() => expect(inspector.verdict?.overridden).toBe(true));
    await inspector.loadPacks();
    expect(inspector.packs.map((p) => p.id)).toEqual(["mcp/test"]);
    expect(inspector.verdictPack).toMatchObject({ id: "mcp/test", draft: "draft-07", notes: [expect.stringContaining("Fault")] });
  });

  it("marks the list stale once the pasted text it came from changes, and not for a run of other input", async () => {
    const state = setup();
    state.pasteText = CAPTURE;
    state.validatePaste();
    await settle(state);
    expect(state.pasteStale).toBe(false);
    state.pasteText = `${CAPTURE}\n{"ping":true}`;
    expect(state.pasteStale).toBe(true);
    state.pasteText = CAPTURE;
    expect(state.pasteStale).toBe(false);
    state.run([{ name: "frame", text: '{"ping":true}' }]);
    await settle(state);
    state.pasteText = "anything";
    expect(state.pasteStale).toBe(false);
  });

  it("opens the first message of a handed-off run, and a lone message on its own", async () => {
    const state = setup();
    state.run([{ name: "frame", text: CAPTURE }], { selectFirst: true });
    await settle(state);
    await vi.waitFor(() => expect(state.inspector.verdict?.status).toBe("valid"));
    expect(state.inspector.index).toBe(0);

    state.pasteText = '{"fault":"f"}';
    state.validatePaste();
    expect(state.inspector.index).toBe(-1);
    await settle(state);
    await vi.waitFor(() => expect(state.inspector.verdict?.status).toBe("error-response"));
  });

  it("shows a failed run's reason", async () => {
    const state = new ValidateState(
      new ValidationClient(() =>
        inProcessWorker(() => {
          throw new Error("no packs");
        }),
      ),
    );
    state.pasteText = "{}";
    state.validatePaste();
    await settle(state);
    expect(state.phase).toBe("failed");
    expect(state.failure).toBe("Validation stopped (at message #0): no packs");
  });
});

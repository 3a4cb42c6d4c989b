import { describe, expect, it } from "vitest";
import { DocumentError, type DocumentStore } from "../../../core/persist/document-store.ts";
import { decodeEnvelope, encodeEnvelope } from "../../../core/persist/envelope.ts";
import { assertDocumentName } from "../../../core/persist/names.ts";
import { ConnectFormState } from "./connect-form-state.svelte.ts";
import { documentNameFor, documentNames, parseSavedServer } from "./saved-server.ts";
import { SavedServersState } from "./saved-servers.svelte.ts";

/** A workspace in memory that stores documents as the file store does: enveloped JSON text. */
function memoryWorkspace() {
  const files = new Map<string, string>();
  const store: DocumentStore = {
    async list(kind) {
      return [...files.keys()].filter((k) => k.startsWith(`${kind}/`)).map((k) => ({ name: k.slice(kind.length + 1) }));
    },
    async read(kind, name) {
      const text = files.get(`${kind}/${name}`);
      if (text === undefined) throw new DocumentError("not_found", `no ${kind} document "${name}"`);
      return decodeEnvelope(kind, text).data;
    },
    async write(kind, name, data) {
      assertDocumentName(name);
      files.set(`${kind}/${name}`, encodeEnvelope(kind, data, 0));
    },
    async remove(kind, name) {
      files.delete(`${kind}/${name}`);
    },
  };
  const all = () => [...files.values()].join("\n");
  return { store, files, all };
}

function setup(workspace = memoryWorkspace()) {
  const form = new ConnectFormState();
  const saved = new SavedServersState(workspace.store, () => form);
  return { ...workspace, workspace, form, saved };
}

const SECRET = "ghp_very-secret-1";
const TOKEN = "bearer-secret-2";
const CLAUDE = JSON.stringify({
  mcpServers: {
    "My Server": { command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: SECRET, LOG: "1" } },
    remote: { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: `Bearer ${TOKEN}` } },
    broken: { command: "node", args: [1] },
  },
});

describe("importing an mcpServers file into the saved list", () => {
  it("saves every good server, reports the bad one and the renames, and writes no secret", async () => {
    const { saved, files, all } = setup();
    saved.importText = CLAUDE;
    await saved.importConfig();
    expect(saved.error).toBeNull();
    expect(saved.notice).toBe("imported 2 of 3 servers from the pasted text; their secret values stay in this tab only");
    expect(saved.names).toEqual(["My-Server", "remote"]);
    expect(saved.notes).toEqual([
      'Not imported: "broken": args[0] is a number (1); every argument must be a string.',
      '"My Server" is saved as "My-Server" (a workspace name is free, and uses letters, digits, ".", "_" and "-")',
    ]);
    // One entry was refused, so the text stays for fixing; a clean import clears it.
    expect(saved.importText).toBe(CLAUDE);
    saved.importText = '{"mcpServers": {"ok": {"command": "node"}}}';
    await saved.importConfig();
    expect(saved.importText).toBe("");
    expect(all()).not.toContain(SECRET);
    expect(all()).not.toContain(TOKEN);
    expect(JSON.parse(files.get("servers/My-Server")!)).toMatchObject({
      format: "patchbay.servers",
      version: 1,
      data: { protocol: "mcp", name: "My Server", server: { type: "stdio", command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "", LOG: "" } }, connection: "relay", secrets: "omitted" },
    });
  });

  it("loads an imported server with its secrets in the same tab, and asks for them again after a reload", async () => {
    const { saved, form, workspace } = setup();
    await saved.importConfig(CLAUDE);
    await saved.load("remote");
    expect([form.transportChoice, form.url, form.bearerToken]).toEqual(["streamable-http", "https://mcp.example/mcp", TOKEN]);
    expect(saved.notice).toBe('loaded "remote"');
    await saved.load("My-Server");
    expect(form.envRows).toEqual([{ name: "GITHUB_TOKEN", value: SECRET }, { name: "LOG", value: "1" }]);

    const reloaded = setup(workspace);
    await reloaded.saved.load("My-Server");
    expect(reloaded.form.command).toBe("npx");
    expect(reloaded.form.envRows).toEqual([{ name: "GITHUB_TOKEN", value: "" }, { name: "LOG", value: "" }]);
    expect(reloaded.saved.notice).toBe('loaded "My-Server"; give environment variable GITHUB_TOKEN, environment variable LOG again (secret values are not saved)');
    await reloaded.saved.load("remote");
    expect(reloaded.form.bearerToken).toBe("");
    expect(reloaded.saved.notice).toBe('loaded "remote"; give the bearer token again (secret values are not saved)');
  });

  it("never overwrites a saved server: a second import of the same names gets new names", async () => {
    const { saved } = setup();
    await saved.importConfig(CLAUDE);
    await saved.importConfig(CLAUDE);
    expect(saved.names).toEqual(["My-Server", "My-Server-2", "remote", "remote-2"]);
    expect(saved.notes).toContain('"remote" is saved as "remote-2" (a workspace name is free, and uses letters, digits, ".", "_" and "-")');
  });

  it("refuses a file that is not a config, writing nothing", async () => {
    const { saved, files } = setup();
    saved.importText = '{"mcpServers": ';
    await saved.importConfig();
    expect(saved.error).toMatch(/^the pasted text: The file is not JSON: /);
    expect(saved.importText).toBe('{"mcpServers": ');
    expect(files.size).toBe(0);
  });

  it("checks a file's size before reading it", async () => {
    const { saved } = setup();
    const huge = new File([new Uint8Array(5_000_000)], "huge.json");
    await saved.importFile(huge);
    expect(saved.error).toBe("huge.json: the file is 5000000 bytes; an MCP client config is a few kilobytes");
    await saved.importFile(new File([CLAUDE], "claude_desktop_config.json"));
    expect(saved.notice).toMatch(/^imported 2 of 3 servers from claude_desktop_config\.json/);
  });
});

describe("saving the form", () => {
  it("saves without secret values by default, with them when asked", async () => {
    const { saved, form, files } = setup();
    form.transportChoice = "streamable-http";
    form.url = "http://127.0.0.1:3001/mcp";
    form.bearerToken = TOKEN;
    form.connectionMode = "auto";
    saved.saveName = "local";
    await saved.save();
    expect(saved.notice).toBe('saved "local" (environment and header values and the bearer token are not saved)');
    expect(files.get("servers/local")).not.toContain(TOKEN);
    expect(parseSavedServer("local", JSON.parse(files.get("servers/local")!).data)).toMatchObject({ ok: true, mode: "auto", secretsSaved: false });

    saved.saveSecrets = true;
    await saved.save();
    expect(files.get("servers/local")).toContain(`Bearer ${TOKEN}`);
  });

  it("refuses a name the workspace cannot store, and a form that does not check out", async () => {
    const { saved, form } = setup();
    saved.saveName = "../x";
    await saved.save();
    expect(saved.error).toBe('cannot save as "../x": the name contains a path separator');
    saved.saveName = "ok";
    form.command = "";
    await saved.save();
    expect(saved.error).toBe('cannot save "ok": Give the command that starts the server');
  });

  it("keeps fields the form does not show, and the server's own name, when saved again", async () => {
    const { saved, files } = setup();
    await saved.importConfig('{"mcpServers": {"a b": {"command": "node", "disabled": true}}}');
    await saved.load("a-b");
    await saved.save();
    expect(JSON.parse(files.get("servers/a-b")!).data).toMatchObject({ name: "a b", server: { type: "stdio", command: "node", disabled: true } });
  });

  it("deletes the selected server", async () => {
    const { saved } = setup();
    await saved.importConfig(CLAUDE);
    saved.selected = "remote";
    await saved.remove();
    expect(saved.names).toEqual(["My-Server"]);
  });
});

describe("exporting the saved list", () => {
  it("writes the chosen flavour with secret values left empty, or filled when asked", async () => {
    const { saved, files } = setup();
    await saved.importConfig(CLAUDE);
    files.set("servers/not-mcp", encodeEnvelope("servers", { protocol: "nats" }, 0));
    const out = await saved.exportServers();
    expect(out?.fileName).toBe("claude_desktop_config.json");
    expect(JSON.parse(out!.text)).toEqual({
      mcpServers: {
        "My Server": { command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "", LOG: "" } },
        remote: { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: "" } },
      },
    });
    expect(saved.notes).toEqual(['Left out of the export: "not-mcp" (not an MCP server (protocol "nats"))']);
    expect(saved.notice).toBe("exported 2 servers for Claude Desktop (mcpServers) with secret values left empty");

    saved.exportSecrets = true;
    saved.exportFlavour = "vscode";
    const withSecrets = JSON.parse((await saved.exportServers())!.text) as { servers: Record<string, { env?: object; headers?: object }> };
    expect(withSecrets.servers["My Server"]?.env).toEqual({ GITHUB_TOKEN: SECRET, LOG: "1" });
    expect(withSecrets.servers.remote?.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
  });
});

describe("workspace names for servers", () => {
  it("makes a safe, free name from any server name", () => {
    expect(documentNameFor("My Server", new Set())).toBe("My-Server");
    expect(documentNameFor("github.com/acme/tool", new Set())).toBe("github.com-acme-tool");
    expect(documentNameFor("../../etc", new Set())).toBe("etc");
    expect(documentNameFor("日本", new Set())).toBe("server");
    expect(documentNameFor("con", new Set())).toBe("server-con");
    expect(documentNameFor("x".repeat(300), new Set())).toHaveLength(120);
    expect(documentNames(["A", "a", "a"], ["a"])).toEqual(["A-2", "a-3", "a-4"]);
  });
});

describe("the era a saved server is reached in", () => {
  it("is saved with the server, with the version initialize asks for, and comes back when loaded", async () => {
    const { form, saved, files } = setup();
    form.transportChoice = "streamable-http";
    form.url = "http://127.0.0.1:9/mcp";
    form.era = "modern";
    form.requestedVersion = "2025-06-18";
    saved.saveName = "modern-one";
    await saved.save();
    const data = JSON.parse(files.get("servers/modern-one")!) as { version: number; data: Record<string, unknown> };
    expect(data.version).toBe(1);
    expect(data.data).toMatchObject({ era: "modern", protocolVersion: "2025-06-18" });
    form.era = "auto";
    form.requestedVersion = "2025-11-25";
    await saved.load("modern-one");
    expect([form.era, form.requestedVersion]).toEqual(["modern", "2025-06-18"]);
  });

  it("loads a server saved before eras as legacy with the newest legacy version, and names an era it does not know", () => {
    const before = { protocol: "mcp", name: "old", server: { type: "stdio", command: "node", args: [] }, connection: "relay", secrets: "omitted" };
    expect(parseSavedServer("old", before)).toMatchObject({ ok: true, protocol: { era: "legacy", version: "2025-11-25" }, notes: [] });
    const odd = parseSavedServer("odd", { ...before, era: "future", protocolVersion: "2026-07-28" });
    expect(odd).toMatchObject({ ok: true, protocol: { era: "legacy", version: "2025-11-25" } });
    if (!odd.ok) return;
    expect(odd.notes).toEqual([
      'its era "future" is none of auto, legacy, modern; it loads as legacy',
      'its protocol version "2026-07-28" is not one initialize can ask for; 2025-11-25 is used',
    ]);
  });

  it("gives imported servers the auto era, as new ones get", async () => {
    const { saved, files } = setup();
    await saved.importConfig(JSON.stringify({ mcpServers: { one: { command: "node" } } }));
    expect(JSON.parse(files.get("servers/one")!).data).toMatchObject({ era: "auto" });
  });
});

import { expect, type Locator, type Page } from "@playwright/test";
import { EditorPage } from "./editor-page.ts";

/** The MCP workbench, reached through its tab; selectors by role, label and test id. */
export class McpPage {
  readonly page: Page;
  readonly connection: Locator;
  readonly transport: Locator;
  readonly command: Locator;
  readonly args: Locator;
  readonly version: Locator;
  readonly connectButton: Locator;
  readonly state: Locator;
  readonly negotiated: Locator;
  readonly requested: Locator;
  readonly tools: Locator;
  readonly toolFilter: Locator;
  readonly toolCount: Locator;
  readonly argsEditor: EditorPage;
  readonly send: Locator;
  readonly outcome: Locator;
  readonly outcomeRaw: Locator;
  readonly content: Locator;
  /** The worker's verdict on the call's arguments against the tool's inputSchema. */
  readonly argumentsCheck: Locator;
  /** The worker's verdict on the result against the negotiated version's CallToolResult. */
  readonly resultCheck: Locator;
  /** The worker's verdict on structuredContent against the tool's outputSchema. */
  readonly structuredCheck: Locator;
  readonly rawMessage: Locator;
  readonly sendRaw: Locator;
  readonly rawFrames: Locator;
  readonly failure: Locator;
  readonly failureMessage: Locator;
  /** The server side of the workbench, where info, tools and a failed connection's reason show. */
  readonly mainPane: Locator;
  /** Says the call result on show answers other arguments, or a closed connection. */
  readonly callStale: Locator;
  /** The dialog that answers a server's elicitation request. */
  readonly elicitation: Locator;

  constructor(page: Page) {
    this.page = page;
    this.connection = page.getByRole("form", { name: "MCP connection" });
    this.transport = this.connection.getByLabel("Transport");
    this.command = this.connection.getByLabel("Command");
    this.args = this.connection.getByLabel("Arguments (one per line)");
    this.version = this.connection.getByLabel("Requested protocol version");
    this.connectButton = this.connection.getByRole("button", { name: /^(Connect|Connecting…|Disconnect)$/ });
    this.state = page.getByTestId("mcp-state");
    this.negotiated = page.getByTestId("mcp-negotiated-version");
    this.requested = page.getByTestId("mcp-requested-version");
    this.tools = page.getByRole("listbox", { name: "Tools" });
    this.toolFilter = page.getByLabel("Filter tools");
    this.toolCount = page.getByTestId("mcp-tool-count");
    this.argsEditor = new EditorPage(page, "Arguments");
    this.send = page.getByRole("form", { name: "Tool call" }).getByRole("button", { name: "Send" });
    this.outcome = page.getByTestId("mcp-outcome");
    this.outcomeRaw = page.getByTestId("mcp-outcome-raw");
    this.content = page.getByRole("list", { name: "Result content" });
    this.argumentsCheck = page.getByTestId("mcp-check-arguments");
    this.resultCheck = page.getByTestId("mcp-check-result");
    this.structuredCheck = page.getByTestId("mcp-check-structured-content");
    this.rawMessage = page.getByLabel("Raw message");
    this.sendRaw = page.getByRole("button", { name: "Send raw" });
    this.rawFrames = page.getByRole("list", { name: "Raw frames" });
    this.failure = page.getByRole("alert", { name: "Connection failure" });
    this.failureMessage = page.getByTestId("mcp-failure-message");
    this.mainPane = page.getByRole("region", { name: "MCP server" });
    this.callStale = page.getByRole("form", { name: "Tool call" }).getByTestId("stale-note");
    this.elicitation = page.getByRole("dialog", { name: "The server asks for input" });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.getByRole("tab", { name: "MCP" }).click();
    await expect(this.connectButton).toBeVisible();
  }

  /** A version given asks initialize for it, in the legacy era; without one the form's era (auto) decides. */
  async connectStdio(command: string, args: readonly string[], version?: string): Promise<void> {
    await this.transport.selectOption("stdio");
    await this.command.fill(command);
    await this.args.fill(args.join("\n"));
    if (version !== undefined) {
      await this.connection.getByLabel("Protocol era").selectOption("legacy");
      await this.version.selectOption(version);
    }
    await this.connectButton.click();
  }

  /** Filters the list down to the tool and selects it. */
  async selectTool(name: string): Promise<void> {
    await this.toolFilter.fill(name);
    await this.tools.getByRole("option").filter({ hasText: new RegExp(`^${name}\\b`) }).first().click();
    await expect(this.page.getByTestId("mcp-tool-name")).toHaveText(name);
  }

  /** Selects the tool, pastes the arguments and sends with the button, or with Ctrl/Cmd+Enter from the editor. */
  async call(name: string, args: string, via: "button" | "keyboard" = "button"): Promise<void> {
    await this.selectTool(name);
    await this.argsEditor.waitReady();
    await this.argsEditor.replaceText(args);
    if (via === "button") await this.send.click();
    else await this.page.keyboard.press("ControlOrMeta+Enter");
  }
}

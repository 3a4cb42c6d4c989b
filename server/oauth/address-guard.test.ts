import { describe, expect, it } from "vitest";
import { addressProblem, refusedHost } from "./address-guard.ts";

describe("the OAuth route's address guard", () => {
  it.each([
    ["169.254.169.254", /link-local/],
    ["169.254.0.1", /link-local/],
    ["0.0.0.0", /unspecified/],
    ["100.100.100.200", /metadata/],
    ["fe80::1", /link-local/],
    ["FEBF::1", /link-local/],
    ["::ffff:169.254.169.254", /link-local/],
    ["fd00:ec2::254", /metadata/],
    ["::", /unspecified/],
  ])("refuses %s", (address, why) => {
    expect(addressProblem(address)).toMatch(why);
  });

  it.each(["127.0.0.1", "10.1.2.3", "192.168.0.10", "::1", "2001:db8::1", "8.8.8.8", "169.253.1.1", "not-an-ip"])("lets %s through", (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });

  it("refuses a literal host, a metadata name, and a name that resolves to a refused address", async () => {
    const never = async () => {
      throw new Error("no lookup expected");
    };
    expect(await refusedHost(new URL("http://169.254.169.254/latest/meta-data/"), never)).toBe("169.254.169.254 is a link-local address (cloud metadata services answer there); the OAuth route does not call it");
    expect(await refusedHost(new URL("http://[fe80::1]/"), never)).toMatch(/fe80::1 is a link-local address/);
    expect(await refusedHost(new URL("http://metadata.google.internal/computeMetadata/v1/"), never)).toMatch(/cloud metadata host/);
    const rebinding = async () => ["93.184.216.34", "169.254.169.254"];
    expect(await refusedHost(new URL("https://innocent.example/"), rebinding)).toBe("innocent.example (169.254.169.254) is a link-local address (cloud metadata services answer there); the OAuth route does not call it");
  });

  it("lets loopback and names that resolve elsewhere through, and leaves a failed lookup to the fetch", async () => {
    expect(await refusedHost(new URL("http://127.0.0.1:8080/"))).toBeUndefined();
    expect(await refusedHost(new URL("http://ok.example/"), async () => ["10.0.0.5"])).toBeUndefined();
    expect(await refusedHost(new URL("http://nx.example/"), async () => Promise.reject(new Error("ENOTFOUND")))).toBeUndefined();
  });
});

/**
 * Addresses the OAuth route will not call: link-local ranges (where cloud metadata services
 * answer, 169.254.169.254 and fe80::/10), the known metadata addresses outside them, and the
 * unspecified address. Metadata documents name the URLs the flow fetches, so a hostile server
 * could otherwise point the backend at them. Loopback and private networks stay reachable: local
 * servers are what a developer console is for. A name is resolved and every address checked;
 * the fetch resolves it again, so a name that changes its answer in between is not caught.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

export type Lookup = (hostname: string) => Promise<readonly string[]>;

/** Every address a name resolves to. */
export const dnsLookup: Lookup = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const METADATA_V4 = new Set(["100.100.100.200", "168.63.129.16"]);

function v4Problem(address: string): string | undefined {
  const [a, b] = address.split(".").map(Number) as [number, number];
  if (a === 169 && b === 254) return "a link-local address (cloud metadata services answer there)";
  if (a === 0) return "an unspecified (0.0.0.0/8) address";
  if (METADATA_V4.has(address)) return "a cloud metadata address";
  return undefined;
}

function v6Problem(address: string): string | undefined {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return v4Problem(mapped[1]!);
  if (/^fe[89ab][0-9a-f]?:/.test(lower)) return "a link-local address (fe80::/10)";
  if (lower === "::" || lower === "::0") return "the unspecified address";
  if (lower === "fd00:ec2::254") return "a cloud metadata address";
  return undefined;
}

/** Why an IP address is refused, or undefined when it may be called. */
export function addressProblem(address: string): string | undefined {
  const kind = isIP(address);
  if (kind === 4) return v4Problem(address);
  if (kind === 6) return v6Problem(address);
  return undefined;
}

/** Why the URL's host is refused, or undefined; a name that does not resolve is left for the fetch to name. */
export async function refusedHost(url: URL, resolve: Lookup = dnsLookup): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const say = (address: string, problem: string) =>
    `${host === address ? address : `${host} (${address})`} is ${problem}; the OAuth route does not call it`;
  if (isIP(host) !== 0) {
    const problem = addressProblem(host);
    return problem === undefined ? undefined : say(host, problem);
  }
  if (host.toLowerCase() === "metadata.google.internal") return say(host, "a cloud metadata host");
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return undefined;
  }
  for (const address of addresses) {
    const problem = addressProblem(address);
    if (problem !== undefined) return say(address, problem);
  }
  return undefined;
}

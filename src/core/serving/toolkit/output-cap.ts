import { OUTPUT_CAP_BYTES } from "./toolkit-types.ts";

export interface CappedOutput {
  readonly text: string;
  readonly truncated: boolean;
}

const marker = (omitted: number): string => `\n… ${omitted} bytes omitted …\n`;

/**
 * Collects a command's output in bounded memory (the first and the last `cap` bytes) and keeps it
 * under `cap` bytes of UTF-8 as head + marker + tail, so both the start of the output and its final
 * error stay visible. Cuts never split a character.
 */
export class OutputCollector {
  readonly #cap: number;
  readonly #head: Uint8Array;
  #headLength = 0;
  // A ring of the last `cap` bytes.
  readonly #tail: Uint8Array;
  #tailEnd = 0;
  #total = 0;

  constructor(cap = OUTPUT_CAP_BYTES) {
    this.#cap = cap;
    this.#head = new Uint8Array(cap);
    this.#tail = new Uint8Array(cap);
  }

  get totalBytes(): number {
    return this.#total;
  }

  push(chunk: Uint8Array): void {
    const room = this.#cap - this.#headLength;
    if (room > 0) {
      this.#head.set(chunk.subarray(0, room), this.#headLength);
      this.#headLength += Math.min(room, chunk.length);
    }
    const keep = chunk.length > this.#cap ? chunk.subarray(chunk.length - this.#cap) : chunk;
    for (const byte of keep) {
      this.#tail[this.#tailEnd % this.#cap] = byte;
      this.#tailEnd++;
    }
    this.#total += chunk.length;
  }

  /** The last `n` bytes seen (n ≤ cap). */
  #last(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.#tail[(this.#tailEnd - n + i + this.#cap * 2) % this.#cap] ?? 0;
    return out;
  }

  finish(): CappedOutput {
    const decoder = new TextDecoder("utf-8", { fatal: false });
    if (this.#total <= this.#cap) return { text: decoder.decode(this.#head.subarray(0, this.#headLength)), truncated: false };
    // The longest the marker can be, so head + marker + tail never exceeds the cap.
    const room = Math.max(0, this.#cap - new TextEncoder().encode(marker(this.#total)).length);
    const head = this.#head.subarray(0, startOfChar(this.#head, Math.ceil(room / 2)));
    const tailWanted = this.#last(Math.floor(room / 2));
    const tail = tailWanted.subarray(nextCharStart(tailWanted));
    const text = decoder.decode(head) + marker(this.#total - head.length - tail.length) + decoder.decode(tail);
    return { text, truncated: true };
  }
}

/** Caps a complete output at once. */
export function capOutput(bytes: Uint8Array, cap = OUTPUT_CAP_BYTES): CappedOutput {
  const collector = new OutputCollector(cap);
  collector.push(bytes);
  return collector.finish();
}

/** Moves `index` back to the start of the UTF-8 character it falls in. */
function startOfChar(bytes: Uint8Array, index: number): number {
  let i = Math.max(0, Math.min(index, bytes.length));
  while (i > 0 && i < bytes.length && ((bytes[i] ?? 0) & 0xc0) === 0x80) i--;
  return i;
}

/** The first index that does not continue a character cut off at the start. */
function nextCharStart(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && ((bytes[i] ?? 0) & 0xc0) === 0x80) i++;
  return i;
}

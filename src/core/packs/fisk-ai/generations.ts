import type { PackSource } from "../../validation/types.ts";
import { STOP_REASONS_NAMED, STOP_REASONS_V002 } from "./protocol.ts";

/**
 * The parameters that separate the three fisk-ai wire shapes the project validates. One builder
 * turns each into a schema pack, so the generations differ only where these say they do.
 */
export interface Generation {
  /** Pack version, e.g. `gen2`; the pack id is `fisk-ai/<version>`. */
  readonly version: "gen1-v0.0.2" | "gen1-v0.0.3" | "gen2";
  readonly generation: 1 | 2;
  readonly label: string;
  readonly order: number;
  /** Gen 1 refuses unknown properties everywhere; Gen 2 accepts and discards them. */
  readonly strict: boolean;
  /** Gen 1 lists stop reasons; Gen 2 accepts any of a bounded shape (`null` here). */
  readonly stopReasons: readonly string[] | null;
  readonly sources: readonly PackSource[];
}

const REPO = "https://github.com/choria-io/fisk-ai";

function sources(commit: string, tag: string | null, schemaDir: string, goDir: string): PackSource[] {
  const revision = tag ? `${tag} (${commit})` : commit;
  return [
    { title: `fisk-ai ${schemaDir}/*.json (JSON Schema 2020-12, one file per protocol id)`, url: `${REPO}/tree/${commit}/${schemaDir}`, revision },
    { title: `fisk-ai ${goDir}/*.go (message types, validator, size cap, id rules, codes)`, url: `${REPO}/tree/${commit}/${goDir}`, revision },
  ];
}

export const GEN1_V002: Generation = {
  version: "gen1-v0.0.2",
  generation: 1,
  label: "fisk-ai Gen 1 (v0.0.1–v0.0.2)",
  order: 1,
  strict: true,
  stopReasons: STOP_REASONS_V002,
  sources: sources("c5c9211a7bcd81ad6295e1dd8e26281445c6204c", "v0.0.2", "a2a/schemas/v1", "a2a"),
};

export const GEN1_V003: Generation = {
  version: "gen1-v0.0.3",
  generation: 1,
  label: "fisk-ai Gen 1 (v0.0.3)",
  order: 2,
  strict: true,
  stopReasons: STOP_REASONS_NAMED,
  sources: sources("88a39670de950d43bd916ce4c81063c8dce4ed1d", "v0.0.3", "internal/a2a/schemas/v1", "internal/a2a"),
};

export const GEN2: Generation = {
  version: "gen2",
  generation: 2,
  label: "fisk-ai Gen 2 (main 4515e16)",
  order: 3,
  strict: false,
  stopReasons: null,
  sources: sources("4515e16cb8b9a9f78bd58683e62fce3caa1db70f", null, "internal/a2a/schemas/v1", "internal/a2a"),
};

export const GENERATIONS: readonly Generation[] = [GEN1_V002, GEN1_V003, GEN2];

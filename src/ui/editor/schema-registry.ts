/** One entry of Monaco's JSON `schemas` setting: a schema bound to exactly one model URI. */
export interface SchemaAssociation {
  readonly uri: string;
  readonly fileMatch: string[];
  readonly schema: object;
}

/** Receives the full association list whenever it changes (Monaco's JSON defaults are global). */
export type SchemaSink = (schemas: SchemaAssociation[]) => void;

/**
 * Keeps each editor's schema keyed by its model URI. Monaco's JSON language settings are one
 * global object, so every change republishes all associations; editors never see each other's
 * schema because each association matches a single model URI.
 */
export class SchemaRegistry {
  readonly #schemas = new Map<string, object>();
  #sink: SchemaSink | undefined;

  /** Connects the sink (once Monaco has loaded) and publishes the current associations. */
  attach(sink: SchemaSink): void {
    this.#sink = sink;
    this.#publish();
  }

  /** Sets or, with undefined, removes the schema of one model. */
  set(modelUri: string, schema: object | undefined): void {
    if (schema === undefined) {
      if (!this.#schemas.delete(modelUri)) return;
    } else {
      this.#schemas.set(modelUri, schema);
    }
    this.#publish();
  }

  delete(modelUri: string): void {
    this.set(modelUri, undefined);
  }

  associations(): SchemaAssociation[] {
    return [...this.#schemas].map(([modelUri, schema]) => ({
      uri: `patchbay://schema/${encodeURIComponent(modelUri)}`,
      fileMatch: [modelUri],
      schema,
    }));
  }

  #publish(): void {
    this.#sink?.(this.associations());
  }
}

/** The registry shared by every JsonEditor on the page. */
export const schemaRegistry = new SchemaRegistry();

/** Evidence phrases naming a method, made once per method (methods reaching here are MCP's own). */
export interface MethodPhrases {
  readonly said: string;
  readonly noId: string;
  readonly withId: string;
  readonly answered: string;
  readonly failed: string;
}

const METHOD_PHRASES = new Map<string, MethodPhrases>();

export function phrases(method: string): MethodPhrases {
  let found = METHOD_PHRASES.get(method);
  if (!found) {
    found = {
      said: `method is "${method}"`,
      noId: `method is "${method}", a request, but there is no id`,
      withId: `method is "${method}", a notification, but there is an id`,
      answered: `answers an earlier "${method}" request with the same id`,
      failed: `answers an earlier "${method}" request with an error`,
    };
    METHOD_PHRASES.set(method, found);
  }
  return found;
}

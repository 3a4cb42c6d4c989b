import { describe, expect, it } from "vitest";
import { monacoThemeOf } from "./theme-watch.ts";

const root = (theme?: string) => ({ dataset: theme === undefined ? {} : { theme } }) as unknown as HTMLElement;

describe("monacoThemeOf", () => {
  it("follows the app's data-theme", () => {
    expect(monacoThemeOf(root("dark"))).toBe("vs-dark");
    expect(monacoThemeOf(root("light"))).toBe("vs");
    expect(monacoThemeOf(root())).toBe("vs");
  });
});

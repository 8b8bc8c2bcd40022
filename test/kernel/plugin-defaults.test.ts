import { describe, expect, it } from "vitest";
import { definePlugin } from "../../src/kernel/config.js";
import { bootConfig } from "../helpers/boot-config.js";
import { createLogger } from "../../src/kernel/logger.js";
import { defineToken, type Token } from "../../src/kernel/tokens.js";
import type { Plugin } from "../../src/kernel/types.js";

/** A service whose token names its default provider, as TOKENS.Cache names cache-memory. */
const GREETING: Token<string> = defineToken<string>("test-greeting", { default: () => fallback });

const provider = (name: string, greeting: string, token = GREETING) =>
  definePlugin({
    name,
    provides: [token],
    setup(ctx) {
      ctx.provide(token, greeting);
    },
  });

const fallback: Plugin<any> = provider("greeting-default", "hello");
const consumer = (name: string, seen: (string | undefined)[], optional = false) =>
  definePlugin({
    name,
    consumes: [{ token: GREETING, optional }],
    setup(ctx) {
      seen.push(ctx.resolveOptional(GREETING));
    },
  });

const boot = (plugins: unknown[]) => bootConfig({ plugins: plugins as never }, { logger: createLogger("silent") });

describe("a consumed service's default provider", () => {
  it("is booted once, before every consumer, required or optional, when the config provides the service nowhere", async () => {
    const seen: (string | undefined)[] = [];
    const kernel = await boot([consumer("a", seen), consumer("b", seen, true)]);
    expect(kernel.plugins).toEqual(["greeting-default", "a", "b"]);
    expect(seen).toEqual(["hello", "hello"]);
    await kernel.close();
  });

  it("is the same for a plain token in consumes: the default is the token's, not the consumer's", async () => {
    const seen: string[] = [];
    const plain = definePlugin({
      name: "plain",
      consumes: [GREETING],
      setup: (ctx) => void seen.push(ctx.resolve(GREETING)),
    });
    const kernel = await boot([plain]);
    expect(seen).toEqual(["hello"]);
    await kernel.close();
  });

  it("gives way to a provider the config lists, wherever it is listed", async () => {
    const seen: (string | undefined)[] = [];
    const kernel = await boot([consumer("a", seen), provider("mine", "hi")]);
    expect(kernel.plugins).toEqual(["mine", "a"]);
    expect(seen).toEqual(["hi"]);
    await kernel.close();
  });

  it("refuses a default that does not provide the service, naming the consumer", async () => {
    const wrong = definePlugin({ name: "wrong", setup() {} });
    const WRONG = defineToken<string>("test-wrong", { default: () => wrong });
    const needy = definePlugin({ name: "a", consumes: [WRONG], setup() {} });
    await expect(boot([needy])).rejects.toThrow(
      'plugin "a": the default for "test-wrong", plugin "wrong", does not provide it',
    );
  });
});

import { describe, expect, it } from "vitest";
import { definePlugin } from "../../src/kernel/config.js";
import { bootKernel } from "../../src/kernel/kernel.js";
import { createLogger } from "../../src/kernel/logger.js";
import { defineToken } from "../../src/kernel/tokens.js";

const GREETING = defineToken<string>("test-greeting");

const provider = (name: string, greeting: string) =>
  definePlugin({
    name,
    provides: [GREETING],
    setup(ctx) {
      ctx.provide(GREETING, greeting);
    },
  });

const fallback = provider("greeting-default", "hello");
const consumer = (name: string, seen: string[], byDefault: () => ReturnType<typeof definePlugin> = () => fallback) =>
  definePlugin({
    name,
    consumes: [{ token: GREETING, default: byDefault }],
    setup(ctx) {
      seen.push(ctx.resolve(GREETING));
    },
  });

const boot = (plugins: unknown[]) =>
  bootKernel({ config: { plugins: plugins as never }, logger: createLogger("silent") });

describe("a consumed service's default provider", () => {
  it("is booted once, before every consumer naming it, when the config provides the service nowhere", async () => {
    const seen: string[] = [];
    const kernel = await boot([consumer("a", seen), consumer("b", seen)]);
    expect(kernel.plugins).toEqual(["greeting-default", "a", "b"]);
    expect(seen).toEqual(["hello", "hello"]);
    await kernel.close();
  });

  it("gives way to a provider the config lists, wherever it is listed", async () => {
    const seen: string[] = [];
    const kernel = await boot([consumer("a", seen), provider("mine", "hi")]);
    expect(kernel.plugins).toEqual(["mine", "a"]);
    expect(seen).toEqual(["hi"]);
    await kernel.close();
  });

  it("refuses a default that does not provide the service, naming the consumer", async () => {
    const wrong = definePlugin({ name: "wrong", setup() {} });
    await expect(boot([consumer("a", [], () => wrong)])).rejects.toThrow(
      'plugin "a": the default for "test-greeting", plugin "wrong", does not provide it',
    );
  });
});

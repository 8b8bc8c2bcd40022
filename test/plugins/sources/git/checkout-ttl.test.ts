import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryBackend } from "../../../../src/cache/memory-backend.js";
import { ensureCheckout, type CheckoutSettings } from "../../../../src/plugins/sources/git/checkout.js";
import { engineOver } from "../../../cache/engine-over.js";
import { manualClock } from "../../../helpers/clock.js";
import { createRepository, skill, tempDir } from "./repos.js";

describe("a branch's checkout on its clock", () => {
  it("trusts the commit it saw for refTtlMs, then asks the remote again", async () => {
    const repo = await createRepository({ "pdf/SKILL.md": skill("pdf") });
    const time = manualClock();
    const { engine } = engineOver(createMemoryBackend({ maxBytes: 1e6, maxEntries: 100 }));
    const settings: CheckoutSettings = {
      url: repo.url,
      ref: "main",
      dir: join(await tempDir(), "checkouts"),
      refTtlMs: 60_000,
      timeoutMs: 20_000,
      protocols: ["file"],
      cache: engine.view("git"),
      maxTotalBytes: 10_000_000,
      followRedirects: false,
      clock: time.clock,
    };
    const signal = new AbortController().signal;
    const first = await ensureCheckout(settings, signal);
    const second = await repo.commit({ "notes/SKILL.md": skill("notes") });
    time.tick(59_999);
    expect((await ensureCheckout(settings, signal)).commit).toBe(first.commit);
    time.tick(1);
    expect((await ensureCheckout(settings, signal)).commit).toBe(second);
  });
});

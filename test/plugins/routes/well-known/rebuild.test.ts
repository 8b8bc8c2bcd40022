import { utimes, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import { skillMd, tempDir, writeSkillFile } from "../../sources/fs/files.js";
import { appOf, get } from "../../transports/http/in-process.js";

// Past maxAgeSeconds with no catalog change, the discovery route answers from the site it built
// while it builds the next one: no request waits for a rebuild of the whole site.

let kernel: SkillsKernel | undefined;
afterEach(() => kernel?.close());

async function digestOf(kernelApp: ReturnType<typeof appOf>): Promise<string> {
  const response = await get(kernelApp, "/.well-known/agent-skills/index.json");
  expect(response.status).toBe(200);
  const index = (await response.json()) as { skills: { name: string; digest: string }[] };
  return index.skills.find((skill) => skill.name === "s")!.digest;
}

describe("well-known: a site past its max age", () => {
  it("answers from the built site while the next is built, then from the next", async () => {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    const notes = await writeSkillFile(root, "s", "first", "notes.txt");
    kernel = await createKernel({
      config: {
        plugins: [
          ["fs", { roots: [root], watch: false }],
          ["well-known", { maxAgeSeconds: 0 }],
        ],
      },
      logger: createLogger("silent"),
    });
    const app = appOf(kernel);
    const first = await digestOf(app);
    await writeFile(notes, "second, longer");
    const later = new Date(Date.now() + 60_000);
    await utimes(notes, later, later);
    // This request finds the site past its age: it is answered from it and starts the next.
    expect(await digestOf(app)).toBe(first);
    await vi.waitFor(async () => expect(await digestOf(app)).not.toBe(first));
  });
});

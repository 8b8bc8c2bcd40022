import { describe, expect, it } from "vitest";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

/**
 * Whether `read` settles before the event loop runs any I/O callback: a blocking call answers at
 * once, an fs/promises call only once the thread pool's answer comes back through the loop.
 * setImmediate's callback runs at the latest right after the loop's next poll for I/O, which
 * delivers at most one of the two answers (lstat, read) a read in place waits for.
 */
async function settlesBeforeAnyIoCallback(read: () => Promise<unknown>): Promise<boolean> {
  let settled = false;
  const reading = read().then(() => {
    settled = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  const before = settled;
  await reading;
  return before;
}

describe("the fs source's reads after the load", () => {
  async function loadedSource(inProcessOnly: boolean | undefined) {
    const root = await tempDir();
    await writeSkillFile(root, "s", skillMd("s"));
    await writeSkillFile(root, "s/references", "hello", "hello.md");
    const { sources } = await setupFs({ roots: [root], diskCache: false, watch: false }, root, inProcessOnly);
    await sources[0]!.load(new AbortController().signal);
    return sources[0]!;
  }

  it("make blocking calls in a kernel that serves nothing", async () => {
    const source = await loadedSource(true);
    expect(await settlesBeforeAnyIoCallback(() => source.readDocument("s", 1024))).toBe(true);
    expect(await settlesBeforeAnyIoCallback(() => source.readFile("s", "references/hello.md", 1024))).toBe(true);
    expect(await settlesBeforeAnyIoCallback(() => source.listFiles("s", 10))).toBe(true);
  });

  it.each([
    ["a served kernel", false],
    ["a context that does not say", undefined],
  ])("wait in the thread pool in %s", async (_kernel, inProcessOnly) => {
    const source = await loadedSource(inProcessOnly);
    expect(await settlesBeforeAnyIoCallback(() => source.readDocument("s", 1024))).toBe(false);
    expect(await settlesBeforeAnyIoCallback(() => source.readFile("s", "references/hello.md", 1024))).toBe(false);
    expect(await settlesBeforeAnyIoCallback(() => source.listFiles("s", 10))).toBe(false);
  });
});

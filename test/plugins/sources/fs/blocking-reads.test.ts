import { describe, expect, it } from "vitest";
import { settlesBeforeAnyIoCallback } from "../../../helpers/blocking.js";
import { setupFs } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

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

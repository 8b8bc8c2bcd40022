import { describe, expect, it, vi } from "vitest";
import * as slicing from "../../../../src/plugins/sources/fs/in-slices.js";
import fsPlugin from "../../../../src/plugins/sources/fs/index.js";
import { createFakeContext } from "./ctx.js";
import { skillMd, tempDir, writeSkillFile } from "./files.js";

vi.mock("../../../../src/plugins/sources/fs/in-slices.js", async (importOriginal) => {
  const actual = await importOriginal<typeof slicing>();
  return { inSlices: vi.fn(actual.inSlices) };
});

/** Keeps the thread busy for `ms`, as a slow read or parse would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Whether an immediate queued before `work` ran before `work` settled. */
async function letTheLoopRun(work: () => Promise<unknown>): Promise<boolean> {
  let ran = false;
  setImmediate(() => (ran = true));
  await work();
  return ran;
}

describe("inSlices", () => {
  const signal = new AbortController().signal;

  it("lets the event loop run between slices", async () => {
    expect(await letTheLoopRun(() => slicing.inSlices([1, 2, 3], () => busy(3), signal))).toBe(true);
  });

  it("runs to the end without yielding when asked for no slices", async () => {
    expect(await letTheLoopRun(() => slicing.inSlices([1, 2, 3], () => busy(3), signal, false))).toBe(false);
  });
});

describe("the fs plugin's loads", () => {
  /** The `slices` argument of each inSlices call one load of a two-skill root made. */
  async function slicesOfALoad(inProcessOnly: boolean | undefined): Promise<unknown[]> {
    const root = await tempDir();
    await writeSkillFile(root, "alpha", skillMd("alpha"));
    await writeSkillFile(root, "beta", skillMd("beta"));
    const fake = createFakeContext(root);
    const options = await fsPlugin.options!["~standard"].validate({ roots: [root], diskCache: false, watch: false });
    if (options.issues) throw new Error("invalid options");
    await fsPlugin.setup({ ...fake.ctx, inProcessOnly }, options.value);
    const inSlices = vi.mocked(slicing.inSlices);
    inSlices.mockClear();
    const snapshot = await fake.sources[0]!.load(new AbortController().signal);
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(["alpha", "beta"]);
    return inSlices.mock.calls.map((call) => call[3]);
  }

  it("yield to the event loop in a served kernel", async () => {
    const slices = await slicesOfALoad(false);
    expect(slices.length).toBeGreaterThan(0);
    expect(slices.every((value) => value !== false)).toBe(true);
    expect(await slicesOfALoad(undefined)).toEqual(slices);
  });

  it("run to the end in a kernel booted for one in-process call", async () => {
    const slices = await slicesOfALoad(true);
    expect(slices.length).toBeGreaterThan(0);
    expect(slices.every((value) => value === false)).toBe(true);
  });
});

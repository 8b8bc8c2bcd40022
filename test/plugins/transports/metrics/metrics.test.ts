import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/index.js";

const SKILLS = fileURLToPath(new URL("../../../../examples/skills", import.meta.url));

/** GET a path of an embedded kernel, as a request on loopback would. */
const get = (kernel: SkillsKernel, path: string) => kernel.fetch(new Request(`http://127.0.0.1${path}`, { headers: { host: "127.0.0.1" } }));

describe("metrics plugin, embedded", () => {
  const kernels: SkillsKernel[] = [];
  afterAll(async () => {
    await Promise.all(kernels.map((kernel) => kernel.close()));
  });

  it("keeps a registry per kernel: two kernels in one process neither collide nor share series", async () => {
    for (const root of [SKILLS, fileURLToPath(new URL("../../../fixtures/skills", import.meta.url))]) {
      kernels.push(await createKernel({ config: { plugins: [["fs", { roots: [root] }], "list-skills", "http", "metrics"] }, baseDir: root }));
    }
    const [first, second] = kernels as [SkillsKernel, SkillsKernel];
    await first.catalog.ready();
    await second.catalog.ready();
    const [one, two] = await Promise.all([get(first, "/metrics").then((r) => r.text()), get(second, "/metrics").then((r) => r.text())]);
    // Each scrape reports its own kernel's catalog (3 skills, then the fixtures' own count).
    const served = (text: string) => Number(/^skills_kernel_source_skills\{[^}]*\} (\d+)$/m.exec(text)?.[1]);
    expect(served(one)).toBe(first.catalog.list().length);
    expect(served(two)).toBe(second.catalog.list().length);
    expect(served(one)).not.toBe(served(two));
    // prom-client's process-wide default metrics are never collected into a kernel's registry.
    expect(one).not.toContain("process_cpu");
  });
});

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createKernel, TOKENS, type SkillsKernel } from "../../../../src/index.js";
import { fetchIn } from "../../../helpers/embedded-http.js";

const SKILLS = fileURLToPath(new URL("../../../../examples/skills", import.meta.url));

/** GET a path of an embedded kernel, as a request on loopback would. */
const get = (kernel: SkillsKernel, path: string) => fetchIn(kernel, path);

describe("metrics plugin, embedded", () => {
  const kernels: SkillsKernel[] = [];
  afterAll(async () => {
    await Promise.all(kernels.map((kernel) => kernel.close()));
  });

  it("keeps a registry per kernel: two kernels in one process neither collide nor share series", async () => {
    for (const root of [SKILLS, fileURLToPath(new URL("../../../fixtures/skills", import.meta.url))]) {
      kernels.push(
        await createKernel({
          config: { plugins: [["fs", { roots: [root] }], "list-skills", "http", "metrics"] },
          baseDir: root,
        }),
      );
    }
    const [first, second] = kernels as [SkillsKernel, SkillsKernel];
    await first.catalog.ready();
    await second.catalog.ready();
    const [one, two] = await Promise.all([
      get(first, "/metrics").then((r) => r.text()),
      get(second, "/metrics").then((r) => r.text()),
    ]);
    // Each scrape reports its own kernel's catalog (3 skills, then the fixtures' own count).
    const served = (text: string) => Number(/^skills_kernel_source_skills\{[^}]*\} (\d+)$/m.exec(text)?.[1]);
    expect(served(one)).toBe(first.catalog.list().length);
    expect(served(two)).toBe(second.catalog.list().length);
    expect(served(one)).not.toBe(served(two));
    // prom-client's process-wide default metrics are never collected into a kernel's registry.
    expect(one).not.toContain("process_cpu");
  });

  it("names only the sources the scraper may see, and get_cache_stats shows entries only to a caller who sees them all", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sk-metrics-hidden-"));
    try {
      for (const [root, name] of [
        ["secret", "payroll-run"],
        ["open", "notes"],
      ] as const) {
        await mkdir(join(dir, root, name), { recursive: true });
        await writeFile(
          join(dir, root, name, "SKILL.md"),
          `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`,
        );
      }
      const roots = [
        { path: "secret", source: "payroll-team", visibleTo: { scopes: ["skills:payroll"] } },
        { path: "open", source: "open" },
      ];
      const kernel = await createKernel({
        config: { plugins: [["fs", { roots }], "list-skills", "cache-stats", "http", "metrics"] },
        baseDir: dir,
      });
      kernels.push(kernel);
      await kernel.catalog.ready();
      const text = await (await get(kernel, "/metrics")).text();
      expect(text).toMatch(/skills_kernel_source_skills\{source="open"\} 1/);
      expect(text).not.toContain("payroll-team");
      await kernel.callTool(
        "list_skills",
        {},
        { identity: { subject: "ada", scopes: ["skills:payroll"], claims: {} } },
      );
      const outsider = await kernel.callTool("get_cache_stats", {});
      expect(outsider.structuredContent).toMatchObject({ entries: null, entries_withheld: true });
      expect(JSON.stringify(outsider.content)).toContain("entries: not shown");
      const member = await kernel.callTool(
        "get_cache_stats",
        {},
        { identity: { subject: "ada", scopes: ["skills:payroll"], claims: {} } },
      );
      expect(member.structuredContent).not.toHaveProperty("entries_withheld");
      expect((member.structuredContent as { entries: unknown }).entries).not.toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("counts usage as totals, per skill only below maxSkillSeries and for sources the scraper sees, never per query", async () => {
    const boot = async (maxSkillSeries: number) => {
      const kernel = await createKernel({
        config: {
          plugins: [
            ["fs", { roots: [SKILLS], watch: false }],
            "search-skills",
            "read-skill",
            "http",
            ["metrics", { maxSkillSeries }],
            ["usage", { diskCache: false }],
          ],
        },
        baseDir: SKILLS,
      });
      kernels.push(kernel);
      await kernel.catalog.ready();
      await kernel.callTool("search_skills", { query: "release notes" });
      await kernel.callTool("read_skill", { skill_name: "readme-reviewer" });
      await kernel.callTool("search_skills", { query: "quantum banana secret-query" });
      await kernel.resolve(TOKENS.Usage).flush();
      return (await get(kernel, "/metrics")).text();
    };
    const small = await boot(200);
    expect(small).toMatch(/^skills_kernel_skill_uses_total\{kind="read"\} 1$/m);
    expect(small).toMatch(/^skills_kernel_search_misses_total 1$/m);
    expect(small).toMatch(
      /^skills_kernel_skill_uses_by_skill_total\{source="skills",skill="readme-reviewer",kind="read"\} 1$/m,
    );
    expect(small).not.toContain("quantum");
    const large = await boot(1);
    expect(large).toMatch(/^skills_kernel_skill_uses_total\{kind="read"\} 1$/m);
    expect(large).not.toMatch(/^skills_kernel_skill_uses_by_skill_total\{/m);
  });
});

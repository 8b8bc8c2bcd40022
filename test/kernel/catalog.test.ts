import { describe, expect, it } from "vitest";
import { SkillCatalog } from "../../src/kernel/catalog.js";
import { createLogger } from "../../src/kernel/logger.js";
import type { SkillSource, SourceSkill } from "../../src/kernel/types.js";

const skill = (name: string, path: string, rank = 0): SourceSkill => ({
  name,
  description: `${name} at ${path}`,
  path,
  frontmatter: Object.create(null),
  excerpt: "",
  rank,
});

/** A source of metadata only: these tests never read files. */
function metadataSource(name: string, load: SkillSource["load"], watch?: SkillSource["watch"]): SkillSource {
  const noFiles = () => Promise.reject(new Error("not in this test"));
  return { name, description: `${name} folder`, load, readDocument: noFiles, listFiles: noFiles, readFile: noFiles, watch };
}

const source = (name: string, skills: SourceSkill[], fail = false): SkillSource =>
  metadataSource(name, async () => {
    if (fail) throw new Error("disk on fire");
    return { skills, diagnostics: [] };
  });

async function catalogOf(...sources: SkillSource[]) {
  const catalog = new SkillCatalog(createLogger("silent"));
  for (const s of sources) catalog.addSource(s);
  await catalog.refresh();
  return catalog;
}

describe("SkillCatalog identity", () => {
  it("gives a name to the first source and a qualified id to the others", async () => {
    const catalog = await catalogOf(source("project", [skill("pdf", "pdf")]), source("user", [skill("pdf", "pdf")]));
    expect(catalog.list().map((s) => [s.id, s.qualifiedId, s.shadowed])).toEqual([
      ["pdf", "project:pdf", false],
      ["user:pdf", "user:pdf", true],
    ]);
    expect(catalog.get("pdf")?.source).toBe("project");
    expect(catalog.get("project:pdf")?.source).toBe("project");
    expect(catalog.get("user:pdf")?.source).toBe("user");
  });

  it("within a source, root rank then depth then path decide, and paths qualify repeated names", async () => {
    const catalog = await catalogOf(
      source("corpus", [skill("run", "b/deep/run"), skill("run", "z/run"), skill("run", "a/run", 1), skill("solo", "x/solo")]),
    );
    const ids = catalog.list().map((s) => s.id);
    expect(ids).toEqual(["solo", "run", "corpus:b/deep/run", "corpus:a/run"]);
    expect(catalog.get("run")?.path).toBe("z/run");
    expect(catalog.get("corpus:z/run")?.id).toBe("run");
    expect(catalog.get("corpus:solo")?.id).toBe("solo");
  });

  it("keeps skills reachable when two roots of a source hold the same path", async () => {
    const catalog = await catalogOf(source("project", [skill("a", "x", 0), skill("a", "x", 1)]));
    expect(catalog.list().map((s) => s.qualifiedId)).toEqual(["project:x", "project:x#2"]);
  });

  it("never lets a name with a colon pass for another skill's qualified id", async () => {
    const catalog = await catalogOf(source("project", [skill("user:pdf", "odd")]), source("user", [skill("pdf", "pdf")]));
    expect(catalog.list().map((s) => s.id)).toEqual(["project:user:pdf", "pdf"]);
    expect(catalog.get("user:pdf")?.source).toBe("user");
  });

  it("reports a failing source as a diagnostic and serves the others", async () => {
    const catalog = await catalogOf(source("broken", [], true), source("ok", [skill("a", "a")]));
    expect(catalog.list().map((s) => s.id)).toEqual(["a"]);
    expect(catalog.diagnostics()).toEqual([
      expect.objectContaining({ severity: "error", source: "broken", code: "source-failed" }),
    ]);
  });

  it("keeps what it served when a reload is cut short by shutdown", async () => {
    let calls = 0;
    const flaky = metadataSource("flaky", async (signal) => {
      if (++calls > 1) signal.throwIfAborted();
      return { skills: [skill("a", "a")], diagnostics: [] };
    });
    const catalog = await catalogOf(flaky);
    const shutdown = new AbortController();
    shutdown.abort();
    await catalog.refresh(shutdown.signal);
    expect(catalog.list().map((s) => s.id)).toEqual(["a"]);
    expect(catalog.diagnostics()).toEqual([]);
  });

  it("refuses two sources with one name", () => {
    const catalog = new SkillCatalog(createLogger("silent"));
    catalog.addSource(source("dup", []));
    expect(() => catalog.addSource(source("dup", []))).toThrow('a skill source named "dup" already exists');
  });

  it("shares one load between concurrent refreshes and ready()", async () => {
    let loads = 0;
    const counting = metadataSource("c", async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return { skills: [skill("a", "a")], diagnostics: [] };
    });
    const catalog = new SkillCatalog(createLogger("silent"));
    catalog.addSource(counting);
    await Promise.all([catalog.refresh(), catalog.refresh(), catalog.ready()]);
    expect(loads).toBe(1);
    await catalog.refresh();
    expect(loads).toBe(2);
  });
});

describe("SkillCatalog changes", () => {
  it("tells listeners what each load added, removed and updated", async () => {
    let skills = [skill("a", "a"), skill("b", "b")];
    const catalog = new SkillCatalog(createLogger("silent"));
    catalog.addSource(metadataSource("s", async () => ({ skills, diagnostics: [] })));
    const changes: string[] = [];
    catalog.onChange(({ added, removed, updated }) =>
      changes.push(`+${added.map((s) => s.id)} -${removed.map((s) => s.id)} ~${updated.map((s) => s.id)}`),
    );
    await catalog.refresh();
    await catalog.refresh();
    skills = [{ ...skill("a", "a"), description: "new text" }, skill("c", "c")];
    await catalog.refresh();
    expect(changes).toEqual(["+a,b - ~", "+c -b ~a"]);
  });

  it("counts a skill whose id changed as updated", async () => {
    let first = [skill("x", "x")];
    const catalog = new SkillCatalog(createLogger("silent"));
    catalog.addSource(metadataSource("one", async () => ({ skills: first, diagnostics: [] })));
    catalog.addSource(source("two", [skill("x", "x")]));
    await catalog.refresh();
    expect(catalog.get("x")?.source).toBe("one");
    const updated: string[] = [];
    catalog.onChange((change) => updated.push(...change.updated.map((s) => `${s.qualifiedId}=${s.id}`)));
    first = [];
    await catalog.refresh();
    expect(updated).toEqual(["two:x=x"]);
  });

  it("reloads, debounced, when a source reports changes", async () => {
    let loads = 0;
    let notify = () => {};
    const catalog = new SkillCatalog(createLogger("silent"));
    catalog.addSource(
      metadataSource(
        "w",
        async () => {
          loads++;
          return { skills: [skill(`v${loads}`, "v")], diagnostics: [] };
        },
        (onChange) => {
          notify = onChange;
          return () => (notify = () => {});
        },
      ),
    );
    await catalog.refresh();
    const stop = catalog.watch(new AbortController().signal);
    const changed = new Promise<void>((resolve) => catalog.onChange(() => resolve()));
    for (let i = 0; i < 5; i++) notify();
    await changed;
    expect(loads).toBe(2);
    expect(catalog.list().map((s) => s.name)).toEqual(["v2"]);
    stop();
    notify();
    await new Promise((r) => setTimeout(r, 400));
    expect(loads).toBe(2);
  });
});

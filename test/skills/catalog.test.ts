import { describe, expect, it } from "vitest";
import { systemClock, type Clock } from "../../src/kernel/clock.js";
import { WholeCatalog } from "../../src/skills/catalog/catalog.js";
import { SkillFileError, ToolInputError } from "../../src/kernel/errors.js";
import { createLogger } from "../../src/kernel/logger.js";
import { manualClock } from "../helpers/clock.js";
import type { CatalogSource, SourceSkill } from "../../src/skills/types.js";

const skill = (name: string, path: string, rank = 0): SourceSkill => ({
  name,
  description: `${name} at ${path}`,
  path,
  frontmatter: Object.create(null),
  excerpt: "",
  rank,
});

/** A source of metadata only: these tests never read files. */
function metadataSource(name: string, load: CatalogSource["load"], watch?: CatalogSource["watch"]): CatalogSource {
  const noFiles = () => Promise.reject(new Error("not in this test"));
  return {
    name,
    description: `${name} folder`,
    load,
    readDocument: noFiles,
    listFiles: noFiles,
    readFile: noFiles,
    watch,
  };
}

const source = (name: string, skills: SourceSkill[], fail = false): CatalogSource =>
  metadataSource(name, async () => {
    if (fail) throw new Error("disk on fire");
    return { skills, diagnostics: [] };
  });

async function catalogOf(...sources: CatalogSource[]) {
  return catalogOn(systemClock, ...sources);
}

async function catalogOn(clock: Clock, ...sources: CatalogSource[]) {
  const catalog = new WholeCatalog(createLogger("silent"), clock);
  for (const s of sources) catalog.addSource(s);
  await catalog.refresh();
  return catalog;
}

describe("WholeCatalog identity", () => {
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
      source("corpus", [
        skill("run", "b/deep/run"),
        skill("run", "z/run"),
        skill("run", "a/run", 1),
        skill("solo", "x/solo"),
      ]),
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
    const catalog = await catalogOf(
      source("project", [skill("user:pdf", "odd")]),
      source("user", [skill("pdf", "pdf")]),
    );
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
    await catalog.refresh(undefined, shutdown.signal);
    expect(catalog.list().map((s) => s.id)).toEqual(["a"]);
    expect(catalog.diagnostics()).toEqual([]);
  });

  it("fails a source that returns malformed skills (an excerpt getter giving no string among them), and serves the others", async () => {
    const malformed = metadataSource("odd", async () => ({ skills: [{ name: undefined }] as never, diagnostics: [] }));
    const nothing = metadataSource("void", async () => undefined as never);
    const { excerpt: _, ...rest } = skill("b", "b");
    const numberExcerpt = Object.defineProperty(rest, "excerpt", { get: () => 1, enumerable: true }) as SourceSkill;
    const getter = metadataSource("getter", async () => ({ skills: [numberExcerpt], diagnostics: [] }));
    const catalog = await catalogOf(malformed, nothing, getter, source("ok", [skill("a", "a")]));
    expect(catalog.list().map((s) => s.id)).toEqual(["a"]);
    expect(catalog.diagnostics().map((d) => [d.source, d.code, d.message])).toEqual([
      [
        "odd",
        "source-failed",
        'source "odd" failed to load: skills[0] is not a skill (name, description, path, excerpt, rank, frontmatter)',
      ],
      ["void", "source-failed", 'source "void" failed to load: load() did not return { skills: [], diagnostics: [] }'],
      [
        "getter",
        "source-failed",
        'source "getter" failed to load: skills[0] is not a skill (name, description, path, excerpt, rank, frontmatter)',
      ],
    ]);
  });

  it("refuses two sources with one name", () => {
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource(source("dup", []));
    expect(() => catalog.addSource(source("dup", []))).toThrow('a skill source named "dup" already exists');
  });

  it("shares one load between concurrent refreshes and ready()", async () => {
    let loads = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const counting = metadataSource("c", async () => {
      loads++;
      await gate;
      return { skills: [skill("a", "a")], diagnostics: [] };
    });
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource(counting);
    const all = Promise.all([catalog.refresh(), catalog.refresh(), catalog.ready()]);
    open();
    await all;
    expect(loads).toBe(1);
    await catalog.refresh();
    expect(loads).toBe(2);
  });
});

describe("WholeCatalog changes", () => {
  it("tells listeners what each load added, removed and updated", async () => {
    let skills = [skill("a", "a"), skill("b", "b")];
    const catalog = new WholeCatalog(createLogger("silent"));
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
    const catalog = new WholeCatalog(createLogger("silent"));
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
    const time = manualClock();
    const catalog = new WholeCatalog(createLogger("silent"), time.clock);
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
    expect(loads).toBe(1);
    await time.tickAsync(60_000);
    await changed;
    expect(loads).toBe(2);
    expect(catalog.list().map((s) => s.name)).toEqual(["v2"]);
    stop();
    notify();
    expect(time.pending()).toBe(0);
    await time.tickAsync(60_000);
    expect(loads).toBe(2);
  });
});

/** A source whose file methods record their calls and answer with the skill path they were given. */
function fileSource(name: string, skills: SourceSkill[], calls: string[]): CatalogSource {
  const bytes = (text: string) => new TextEncoder().encode(text);
  return {
    name,
    description: `${name} folder`,
    load: async () => ({ skills, diagnostics: [] }),
    async readDocument(path, maxBytes) {
      calls.push(`${name}.readDocument(${path}, ${maxBytes})`);
      return { bytes: bytes(`doc of ${path}`), size: 10, truncated: false };
    },
    async listFiles(path, limit) {
      calls.push(`${name}.listFiles(${path}, ${limit})`);
      return { files: [{ path: "a.md", size: 1 }], omitted: 0, complete: true };
    },
    async readFile(path, filePath, maxBytes) {
      calls.push(`${name}.readFile(${path}, ${filePath}, ${maxBytes})`);
      if (filePath === "bad") throw new SkillFileError(filePath, "is not a regular file but a FIFO");
      return { bytes: bytes(`${filePath} of ${path}`), size: 1, truncated: false };
    },
  };
}

async function refusalOf(run: () => unknown): Promise<string> {
  const error = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(ToolInputError);
  return (error as Error).message;
}

describe("WholeCatalog file routing", () => {
  const setup = () => {
    const calls: string[] = [];
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource(fileSource("project", [skill("pdf", "docs/pdf"), skill("pdf-tools", "pdf-tools")], calls));
    catalog.addSource(fileSource("user", [skill("pdf", "pdf"), skill("csv", "csv")], calls));
    return { calls, catalog };
  };

  it("finds the skill by name or qualified id and calls its source with the skill's path", async () => {
    const { calls, catalog } = setup();
    // No refresh: the routing waits for the first load itself.
    expect(new TextDecoder().decode((await catalog.readDocument("pdf", 100)).bytes)).toBe("doc of docs/pdf");
    await catalog.listFiles("user:pdf", 7);
    await catalog.readFile("csv", "references/x.md", 5);
    await catalog.readFile(catalog.get("project:pdf-tools")!, "a.md", 9);
    expect(calls).toEqual([
      "project.readDocument(docs/pdf, 100)",
      "user.listFiles(pdf, 7)",
      "user.readFile(csv, references/x.md, 5)",
      "project.readFile(pdf-tools, a.md, 9)",
    ]);
  });

  it("passes on what the source refuses", async () => {
    const { catalog } = setup();
    const error = await catalog.readFile("csv", "bad", 5).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillFileError);
    expect(error).toMatchObject({ path: "bad", reason: "is not a regular file but a FIFO" });
  });

  it("names up to 3 close ids for an unknown one, closest first", async () => {
    const { calls, catalog } = setup();
    expect(await refusalOf(() => catalog.readDocument("pdff", 100))).toBe(
      'no skill named "pdff"; did you mean: pdf, pdf-tools?',
    );
    expect(await refusalOf(() => catalog.listFiles("csb", 10))).toBe('no skill named "csb"; did you mean: csv?');
    expect(await refusalOf(() => catalog.readFile("usr:pdf", "a.md", 1))).toBe(
      'no skill named "usr:pdf"; did you mean: user:pdf?',
    );
    expect(await refusalOf(() => catalog.readFile("kubernetes", "a.md", 1))).toBe('no skill named "kubernetes"');
    expect(calls).toEqual([]);
  });

  it("keeps a long or odd unknown id short and escaped in the message", async () => {
    const { catalog } = setup();
    await catalog.ready();
    const message = await refusalOf(() => catalog.resolve(`${"x".repeat(5_000)}\n`));
    expect(message.length).toBeLessThan(200);
    expect(await refusalOf(() => catalog.resolve("a\u0000b"))).toBe('no skill named "a\\u0000b"');
  });

  it("resolves within one source by name, path or qualified id", async () => {
    const { catalog } = setup();
    await catalog.ready();
    expect(catalog.resolve("pdf", "user").qualifiedId).toBe("user:pdf");
    expect(catalog.resolve("user:pdf", "user").qualifiedId).toBe("user:pdf");
    expect(catalog.resolve("pdf", "project").qualifiedId).toBe("project:pdf");
    expect(await refusalOf(() => catalog.resolve("csv", "project"))).toBe('no skill named "csv" in source "project"');
    expect(await refusalOf(() => catalog.resolve("pdf-tool", "project"))).toBe(
      'no skill named "pdf-tool" in source "project"; did you mean: pdf-tools?',
    );
    expect(await refusalOf(() => catalog.resolve("pdf", "team"))).toBe(
      'no source named "team"; sources: project, user',
    );
  });

  it("takes the first of a name that repeats within the source", async () => {
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource(source("corpus", [skill("run", "b/deep/run"), skill("run", "z/run")]));
    await catalog.refresh();
    expect(catalog.resolve("run", "corpus").path).toBe("z/run");
    expect(catalog.resolve("b/deep/run", "corpus").path).toBe("b/deep/run");
  });

  it("refuses the files of a skill that shares its path with a higher-ranked one of its source", async () => {
    const calls: string[] = [];
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource(fileSource("mine", [skill("a", "x", 0), skill("b", "x", 1)], calls));
    await catalog.refresh();
    await catalog.readDocument("a", 10);
    expect(await refusalOf(() => catalog.readDocument("b", 10))).toBe(
      'the files of "mine:b" cannot be served: another root of source "mine" holds a skill at the same path "x" (mine:a), and only that one\'s are',
    );
    expect(calls).toEqual(["mine.readDocument(x, 10)"]);
  });
});

describe("WholeCatalog snapshots per source", () => {
  /** A source whose skills and failures the test sets, counting its loads. */
  function controlled(name: string) {
    const state = { skills: [skill(`${name}-a`, "a")], fail: false, loads: 0, gate: Promise.resolve() };
    const source = metadataSource(name, async () => {
      state.loads++;
      await state.gate;
      if (state.fail) throw new Error("network unreachable");
      return { skills: state.skills, diagnostics: [] };
    });
    return { state, source };
  }

  it("keeps a failing source's last good snapshot, marked stale, and removes nothing", async () => {
    const remote = controlled("remote");
    const catalog = await catalogOf(remote.source, source("local", [skill("l", "l")]));
    const removed: string[] = [];
    catalog.onChange((change) => removed.push(...change.removed.map((s) => s.id)));
    remote.state.fail = true;
    await catalog.refresh();
    expect(catalog.list().map((s) => s.id)).toEqual(["remote-a", "l"]);
    expect(removed).toEqual([]);
    expect(catalog.status()).toEqual([
      { source: "remote", state: "stale", skills: 1, error: "network unreachable" },
      { source: "local", state: "ok", skills: 1 },
    ]);
    expect(catalog.diagnostics()).toEqual([
      expect.objectContaining({ severity: "warning", source: "remote", code: "source-stale" }),
    ]);
    remote.state.fail = false;
    await catalog.refresh();
    expect(catalog.status()[0]).toEqual({ source: "remote", state: "ok", skills: 1 });
    expect(catalog.diagnostics()).toEqual([]);
  });

  it("reports a source that never loaded as failed, by name", async () => {
    const catalog = await catalogOf(source("down", [], true), source("up", [skill("u", "u")]));
    expect(catalog.status().map((s) => `${s.source}:${s.state}`)).toEqual(["down:failed", "up:ok"]);
  });

  it("reloads only the sources asked for", async () => {
    const one = controlled("one");
    const two = controlled("two");
    const catalog = await catalogOf(one.source, two.source);
    two.state.skills = [skill("two-b", "b")];
    await catalog.refresh("two");
    expect([one.state.loads, two.state.loads]).toEqual([1, 2]);
    expect(catalog.list().map((s) => s.id)).toEqual(["one-a", "two-b"]);
  });

  it("makes refresh wait for a load that starts after the call", async () => {
    const slow = controlled("slow");
    const catalog = new WholeCatalog(createLogger("silent"));
    catalog.addSource(slow.source);
    let open!: () => void;
    slow.state.gate = new Promise((resolve) => (open = resolve));
    const first = catalog.refresh();
    while (slow.state.loads === 0) await new Promise((resolve) => setImmediate(resolve));
    // The first load has read the old skills; this change must still be seen by the next refresh.
    slow.state.skills = [skill("fresh", "fresh")];
    const second = catalog.refresh();
    slow.state.gate = Promise.resolve();
    open();
    await second;
    expect(catalog.list().map((s) => s.id)).toEqual(["fresh"]);
    await first;
    expect(slow.state.loads).toBe(2);
  });

  it("reloads only the source whose watcher fired", async () => {
    const loads = { quiet: 0, noisy: 0 };
    let notify = () => {};
    const watched = (name: "quiet" | "noisy") =>
      metadataSource(
        name,
        async () => {
          loads[name]++;
          // Each load says something new, so the reload shows as a change.
          return { skills: [{ ...skill(name, name), description: `load ${loads[name]}` }], diagnostics: [] };
        },
        (onChange) => {
          if (name === "noisy") notify = onChange;
          return () => {};
        },
      );
    const time = manualClock();
    const catalog = await catalogOn(time.clock, watched("quiet"), watched("noisy"));
    const stop = catalog.watch(new AbortController().signal);
    const changed = new Promise<void>((resolve) => catalog.onChange(() => resolve()));
    notify();
    await time.tickAsync(60_000);
    await changed;
    stop();
    expect(loads).toEqual({ quiet: 1, noisy: 2 });
  });

  it("logs a skipped skill once per process, at warn, however often it reloads", async () => {
    const lines: string[] = [];
    const catalog = new WholeCatalog(createLogger("debug", (line) => lines.push(line)));
    const bad = { severity: "error" as const, source: "s", path: "broken", code: "yaml-parse", message: "bad YAML" };
    catalog.addSource(metadataSource("s", async () => ({ skills: [], diagnostics: [bad] })));
    await catalog.refresh();
    await catalog.refresh();
    expect(lines.filter((l) => l.includes("skipped s:broken"))).toEqual([
      "[skills-kernel] warn: skipped s:broken: bad YAML",
    ]);
  });

  it("suggests ids by typo or leading words, never by the first letters of an unrelated id", async () => {
    const catalog = await catalogOf(source("s", [skill("nodejs-backend-patterns", "n"), skill("pdf-tools", "p")]));
    expect(() => catalog.resolve("nope")).toThrow(/^no skill named "nope"$/);
    expect(() => catalog.resolve("pdff")).toThrow("did you mean: pdf-tools?");
  });
});

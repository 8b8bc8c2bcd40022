import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The doors between the rooms of src/ (docs/architecture.md, "The import rule"): the kernel,
 * config loading, the cache engine, the skill domain and src/lib import no plugin, the kernel
 * imports no config loading (which imports the kernel), src/lib imports nothing of the project,
 * and whatever is outside a plugin's folder imports it only through its index.ts. Every import is read with TypeScript's own pre-processor, static, re-exports and
 * dynamic import() alike.
 */
const ROOT = join(import.meta.dirname, "../..");
const PLUGIN_FOLDER = /^src\/plugins\/[^/]+\/[^/]+\//;

interface Edge {
  from: string;
  to: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.m?ts$/.test(entry.name) ? [relative(ROOT, path).split("\\").join("/")] : [];
  });
}

/** Every project file each file imports (packages and node: modules are not the rule's business). */
function projectImports(files: readonly string[]): Edge[] {
  return files.flatMap((from) => {
    const info = ts.preProcessFile(readFileSync(join(ROOT, from), "utf8"), true, true);
    return info.importedFiles
      .map((ref) => ref.fileName)
      .filter((spec) => spec.startsWith("."))
      .map((spec) => ({
        from,
        to: relative(ROOT, resolve(ROOT, dirname(from), spec))
          .split("\\")
          .join("/")
          .replace(/\.js$/, ".ts"),
      }));
  });
}

const pluginOf = (file: string) => PLUGIN_FOLDER.exec(file)?.[0];

/** Why one import breaks the rule, or undefined when it keeps it. */
function breach({ from, to }: Edge): string | undefined {
  const target = pluginOf(to);
  if (/^src\/lib\//.test(from)) return "src/lib imports nothing of the project";
  if (target && /^src\/(kernel|config|cache|skills)\//.test(from))
    return "the kernel, config loading, the cache engine and the skill domain import no plugin";
  if (/^src\/kernel\//.test(from) && /^src\/config\//.test(to))
    return "the kernel loads no config: the composition root loads the plugins and hands them to bootKernel";
  if (target && /^src\/lifecycle\//.test(from))
    return "the lifecycle imports no plugin: it is given what it needs (a source opener, src/lifecycle/boot.ts)";
  if (pluginOf(from) && to === "src/create-kernel.ts")
    return "a plugin never imports the composition root that imports it";
  if (target && pluginOf(from) !== target && to !== `${target}index.ts`)
    return `outside ${target}, import only its index.ts`;
  return undefined;
}

function findCycle(edges: readonly Edge[]): string[] | undefined {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const [a, b] = [pluginOf(from), pluginOf(to)];
    if (a && b && a !== b) next.set(a, (next.get(a) ?? new Set()).add(b));
  }
  const done = new Set<string>();
  const visit = (node: string, path: string[]): string[] | undefined => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node];
    if (done.has(node)) return undefined;
    for (const to of next.get(node) ?? []) {
      const cycle = visit(to, [...path, node]);
      if (cycle) return cycle;
    }
    done.add(node);
    return undefined;
  };
  for (const node of next.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

const edges = projectImports(sourceFiles(join(ROOT, "src")));

describe("the import rule", () => {
  it("sees static, re-exported and dynamic imports", () => {
    const registry = edges.filter((edge) => edge.from === "src/plugins/index.ts").map((edge) => edge.to);
    expect(registry).toContain("src/plugins/sources/fs/index.ts");
    expect(edges.some((edge) => edge.from === "src/index.ts" && edge.to === "src/version.ts")).toBe(true);
  });

  it("names each file and import that reaches past a plugin's index.ts or into a plugin from the kernel", () => {
    const breaches = edges
      .map((edge) => ({ line: `${edge.from} -> ${edge.to}`, why: breach(edge) }))
      .filter(({ why }) => why)
      .map(({ line, why }) => `${line}: ${why}`);
    expect(breaches).toEqual([]);
  });

  it("has no import cycle through the composition root", () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
    // Everything createKernel loads, eagerly or on demand: none of it may import createKernel back.
    const seen = new Set<string>();
    const queue = [...(next.get("src/create-kernel.ts") ?? [])];
    while (queue.length > 0) {
      const file = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...(next.get(file) ?? []));
    }
    const back = [...seen].filter((file) => (next.get(file) ?? []).includes("src/create-kernel.ts"));
    expect(back).toEqual([]);
  });

  it("has no import cycle between plugin folders", () => {
    expect(findCycle(edges)).toBeUndefined();
  });
});

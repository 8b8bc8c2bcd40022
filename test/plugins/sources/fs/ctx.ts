import { createLogger } from "../../../../src/kernel/logger.js";
import type { PluginContext } from "../../../../src/kernel/types.js";
import type { CatalogSource, SourceSnapshot } from "../../../../src/skills/types.js";
import type { SourceVisibility } from "../../../../src/skills/catalog/visibility.js";
import fsPlugin from "../../../../src/plugins/sources/fs/index.js";
import { TOKENS } from "../../../../src/tokens.js";

export interface FakeContext {
  readonly ctx: PluginContext;
  /** What setup passed to addSkillSource, in order. */
  readonly sources: CatalogSource[];
  /** Who may see each source, as setup contributed it. */
  readonly visibility: SourceVisibility[];
  /** Every log line, debug included. */
  readonly logs: string[];
}

/** A PluginContext with just what the fs plugin uses; anything else fails the test loudly. */
export function createFakeContext(baseDir: string): FakeContext {
  const sources: CatalogSource[] = [];
  const visibility: SourceVisibility[] = [];
  const logs: string[] = [];
  const unexpected = (method: string) => () => {
    throw new Error(`the fs plugin is not expected to call ctx.${method}`);
  };
  const ctx: PluginContext = {
    name: "fs",
    logger: createLogger("debug", (line) => logs.push(line), "fs"),
    baseDir,
    signal: new AbortController().signal,
    provide: unexpected("provide"),
    contribute: (token, value) => {
      if (token === TOKENS.SourceVisibility) return void visibility.push(value as SourceVisibility);
      if (token !== TOKENS.CatalogSource) throw new Error(`fs contributed ${String(token)}`);
      sources.push(value as CatalogSource);
    },
    resolve: unexpected("resolve"),
    resolveOptional: () => undefined,
    provideScoped: unexpected("provideScoped"),
    resolveAll: unexpected("resolveAll"),
    addTool: unexpected("addTool"),
    extendServer: unexpected("extendServer"),
    addInstructions: unexpected("addInstructions"),
  };
  return { ctx, sources, visibility, logs };
}

/**
 * Validates raw options through the plugin's schema, as the kernel does, then runs setup;
 * `inProcessOnly` as the kernel would say it.
 */
export async function setupFs(rawOptions: unknown, baseDir: string, inProcessOnly?: boolean): Promise<FakeContext> {
  const result = await fsPlugin.options!["~standard"].validate(rawOptions);
  if (result.issues) throw new Error(`invalid fs options: ${result.issues.map((issue) => issue.message).join("; ")}`);
  const fake = createFakeContext(baseDir);
  await fsPlugin.setup({ ...fake.ctx, inProcessOnly }, result.value);
  return fake;
}

/** Sets the plugin up over `roots` and loads its only source. */
export async function loadRoots(
  roots: unknown[],
  baseDir: string,
  extra: Record<string, unknown> = {},
): Promise<SourceSnapshot> {
  const { sources } = await setupFs({ roots, ...extra }, baseDir);
  if (sources.length !== 1) throw new Error(`expected one source, got ${sources.length}`);
  return sources[0]!.load(new AbortController().signal);
}

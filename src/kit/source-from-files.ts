import type { StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import { definePlugin } from "../kernel/config.js";
import type { NeedsTrust, Plugin, PluginContext } from "../kernel/types.js";
import { visibilitySchema, type Visibility } from "../skills/catalog/visibility.js";
import { TOKENS } from "../tokens.js";
import { filesSource, type SkillFiles } from "./files-source.js";

/** The options of a files source whose author declares none: who may see it, from the config entry. */
const visibleToOption = z.strictObject({ visibleTo: visibilitySchema.optional() }).default({});

export interface FilesSourceDefinition<Options> {
  /** The plugin's name, and its source's (an instance listed under another name serves under that one). */
  readonly name: string;
  readonly version?: string;
  /** The kernel versions the plugin works with (see Plugin.kernel). */
  readonly kernel?: string;
  /** Where the skills come from, for banners and logs. Default: the plugin's name. */
  readonly description?: string;
  /** The plugin's options. Without one, the config entry may give `visibleTo` alone. */
  readonly options?: StandardSchemaV1<unknown, Options>;
  readonly needsTrust?: NeedsTrust;
  /** The storage: an adapter (`memorySkillFiles`, `nodeSkillFiles`, two methods of your own), or one made at setup. */
  readonly files: SkillFiles | ((options: Options, ctx: PluginContext) => SkillFiles | Promise<SkillFiles>);
  /** Who may see the skills (absent: every caller). Without `options`, the config entry's `visibleTo`. */
  readonly visibleTo?: Visibility | ((options: Options) => Visibility | undefined);
}

/**
 * A skill source plugin from a two-method files adapter: every folder holding a SKILL.md is a
 * skill, parsed as the built-in sources parse one, a broken one reported as a diagnostic naming
 * its file.
 */
export function sourceFromFiles<Options = { readonly visibleTo?: Visibility }>(
  definition: FilesSourceDefinition<Options>,
): Plugin<Options> {
  const { files, visibleTo, description, options, ...identity } = definition;
  return definePlugin<Options>({
    ...identity,
    options: options ?? (visibleToOption as unknown as StandardSchemaV1<unknown, Options>),
    provides: [TOKENS.CatalogSource, TOKENS.SourceVisibility],
    async setup(ctx, values) {
      const storage = typeof files === "function" ? await files(values, ctx) : files;
      const visibility =
        typeof visibleTo === "function"
          ? visibleTo(values)
          : (visibleTo ?? (options ? undefined : (values as { visibleTo?: Visibility }).visibleTo));
      if (visibility) ctx.contribute(TOKENS.SourceVisibility, { name: ctx.name, visibleTo: visibility });
      ctx.contribute(TOKENS.CatalogSource, filesSource(ctx.name, description ?? ctx.name, storage));
    },
  });
}

import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { NeedsTrust, Plugin, PluginContext } from "../kernel/types.js";
import { visibilitySchema, type Visibility } from "../skills/catalog/visibility.js";
import { TOKENS } from "../tokens.js";
import { filesSource, type SkillFiles } from "./files-source.js";

/** What sourceFromFiles makes a source plugin from: its identity, options and storage. */
export interface FilesSourceDefinition<Options> {
  /** The plugin's name, and its source's (an instance listed under another name serves under that one). */
  readonly name: string;
  /** The plugin's own version (see Plugin.version). */
  readonly version?: string;
  /** The kernel versions the plugin works with (see Plugin.kernel). */
  readonly kernel?: string;
  /** Where the skills come from, for banners and logs. Default: the plugin's name. */
  readonly description?: string;
  /**
   * The plugin's own options. Whatever they are, its config entry also takes `visibleTo`, which
   * the kit reads and checks itself: a schema need not, and should not, list it.
   */
  readonly options?: StandardSchemaV1<unknown, Options>;
  /** What of the plugin needs the user's trust in a found config (see Plugin.needsTrust): a storage that reaches the network does. */
  readonly needsTrust?: NeedsTrust;
  /** The storage: an adapter (`memorySkillFiles`, `nodeSkillFiles`, two methods of your own), or one made at setup. */
  readonly files: SkillFiles | ((options: Options, ctx: PluginContext) => SkillFiles | Promise<SkillFiles>);
  /** Who may see the skills when the config entry's `visibleTo` does not say: absent, every caller. */
  readonly visibleTo?: Visibility;
}

/** What the kit's options schema gives setup: the author's options, and the entry's `visibleTo`. */
interface FilesSourceOptions<Options> {
  readonly own: Options;
  readonly visibleTo: Visibility | undefined;
}

/**
 * A skill source plugin from a two-method files adapter: every folder holding a SKILL.md is a
 * skill, parsed as the built-in sources parse one, a broken one reported as a diagnostic naming
 * its file. Its config entry takes `visibleTo` beside the plugin's own options.
 */
export function sourceFromFiles<Options = undefined>(definition: FilesSourceDefinition<Options>): Plugin {
  const { files, visibleTo, description, options, ...identity } = definition;
  const plugin: Plugin<FilesSourceOptions<Options>> = {
    ...identity,
    options: withVisibleTo(options),
    provides: [TOKENS.CatalogSource, TOKENS.SourceVisibility],
    async setup(ctx, values) {
      const storage = typeof files === "function" ? await files(values.own, ctx) : files;
      const visibility = values.visibleTo ?? visibleTo;
      if (visibility) ctx.contribute(TOKENS.SourceVisibility, { name: ctx.name, visibleTo: visibility });
      ctx.contribute(TOKENS.CatalogSource, filesSource(ctx.name, description ?? ctx.name, storage));
    },
  };
  return plugin as Plugin;
}

/** The author's schema (or none: no options) over the entry without `visibleTo`, which is checked here. */
function withVisibleTo<Options>(
  own: StandardSchemaV1<unknown, Options> | undefined,
): StandardSchemaV1<unknown, FilesSourceOptions<Options>> {
  return {
    "~standard": {
      version: 1,
      vendor: "skills-kernel",
      async validate(value) {
        if (typeof value !== "object" || value === null || Array.isArray(value))
          return { issues: [{ message: "options must be an object" }] };
        const { visibleTo, ...rest } = value as Record<string, unknown>;
        const issues: StandardSchemaV1.Issue[] = [];
        const visibility = visibleTo === undefined ? undefined : visibilitySchema.safeParse(visibleTo);
        for (const issue of visibility?.error?.issues ?? [])
          issues.push({ message: issue.message, path: ["visibleTo", ...issue.path] });
        let ownValue: Options | undefined;
        if (own) {
          const result = await own["~standard"].validate(rest);
          if (result.issues) issues.push(...result.issues);
          else ownValue = result.value;
        } else {
          for (const key of Object.keys(rest)) issues.push({ message: "not an option of this source", path: [key] });
        }
        if (issues.length > 0) return { issues };
        return { value: { own: ownValue as Options, visibleTo: visibility?.data } };
      },
    },
  };
}

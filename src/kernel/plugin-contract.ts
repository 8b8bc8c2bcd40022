import { VERSION } from "../version.js";
import { ConfigError, ERROR_CODES } from "./errors.js";
import { isToken } from "./tokens.js";
import type { Plugin } from "./types.js";

const HOOKS = ["start", "serve", "stop"] as const;
const REF_KEYS = new Set(["token", "optional", "fromStart", "wholeCatalog"]);

type Semver = typeof import("semver");

/**
 * Check plugin objects against the contract before anything of them runs, so a malformed plugin
 * (a hook that is not a function, a token that is not a symbol) or one written for another kernel
 * is refused with a message naming the field, never failing later in a confusing place.
 */
export async function checkPluginContracts(plugins: readonly Plugin<any>[], source: string): Promise<void> {
  // Only a plugin that declares the kernels it supports needs semver, and no built-in one does:
  // importing it on that path alone keeps it off every start (docs/benchmarks.md).
  const semver = plugins.some((plugin) => plugin?.kernel !== undefined) ? (await import("semver")).default : undefined;
  for (const plugin of plugins) checkPluginContract(plugin, source, semver);
}

function checkPluginContract(plugin: Plugin<any>, source: string, semver: Semver | undefined): void {
  const name = typeof plugin?.name === "string" && plugin.name !== "" ? plugin.name : undefined;
  const invalid = (problem: string) =>
    new ConfigError(`${source}: ${name ? `plugin "${name}"` : "a plugin"}: ${problem}`, ERROR_CODES.PLUGIN_INVALID);
  if (!name) throw invalid("needs a non-empty string name");
  if (typeof plugin.setup !== "function") throw invalid(`setup must be a function, not ${kindOf(plugin.setup)}`);
  // One way to declare hooks: returned from setup. One on the object would run for every kernel
  // and every instance of the plugin at once, so it is refused rather than silently ignored.
  for (const hook of HOOKS) {
    if (hook in plugin)
      throw invalid(`${hook} on the plugin object is not a hook; return { ${hook}() {...} } from setup`);
  }
  if (plugin.version !== undefined && typeof plugin.version !== "string")
    throw invalid(`version must be a string, not ${kindOf(plugin.version)}`);
  if (
    plugin.dependsOn !== undefined &&
    !(Array.isArray(plugin.dependsOn) && plugin.dependsOn.every((d) => typeof d === "string"))
  ) {
    throw invalid("dependsOn must be an array of plugin names");
  }
  if (plugin.provides !== undefined && !(Array.isArray(plugin.provides) && plugin.provides.every(isToken))) {
    throw invalid("provides must be an array of tokens (defineToken, TOKENS)");
  }
  const validRef = (ref: unknown) =>
    isToken(ref) ||
    (typeof ref === "object" &&
      ref !== null &&
      isToken((ref as { token?: unknown }).token) &&
      Object.keys(ref).every((key) => REF_KEYS.has(key)) &&
      ["optional", "fromStart", "wholeCatalog"].every((flag) =>
        ["undefined", "boolean"].includes(typeof (ref as Record<string, unknown>)[flag]),
      ));
  if (plugin.consumes !== undefined && !(Array.isArray(plugin.consumes) && plugin.consumes.every(validRef))) {
    throw invalid(
      "consumes must be an array of tokens or { token, optional, fromStart, wholeCatalog } objects " +
        "(a default is the token's own: defineToken(name, { default }))",
    );
  }
  if (
    plugin.options !== undefined &&
    typeof (plugin.options as { "~standard"?: { validate?: unknown } })?.["~standard"]?.validate !== "function"
  ) {
    throw invalid("options must be a Standard Schema (zod, valibot, arktype...)");
  }
  if (plugin.needsTrust !== undefined && !isNeedsTrust(plugin.needsTrust)) {
    throw invalid("needsTrust must be { plugin?: string, options?: { [option]: string } }");
  }
  if (plugin.kernel !== undefined && semver) {
    if (typeof plugin.kernel !== "string" || semver.validRange(plugin.kernel) === null) {
      throw invalid(`kernel must be a version range such as "^${VERSION}", not ${JSON.stringify(plugin.kernel)}`);
    }
    if (!semver.satisfies(VERSION, plugin.kernel, { includePrerelease: true })) {
      const version = plugin.version ? ` ${plugin.version}` : "";
      throw new ConfigError(
        `${source}: plugin "${name}"${version} supports skills-kernel ${plugin.kernel}, but this is skills-kernel ${VERSION}; ` +
          `use a version of the plugin made for it`,
        ERROR_CODES.PLUGIN_INCOMPATIBLE,
      );
    }
  }
}

function isNeedsTrust(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { plugin, options } = value as { plugin?: unknown; options?: unknown };
  if (plugin !== undefined && typeof plugin !== "string") return false;
  if (options === undefined) return true;
  return (
    typeof options === "object" &&
    options !== null &&
    !Array.isArray(options) &&
    Object.values(options).every((why) => typeof why === "string")
  );
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object"
    ? "an object"
    : `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ""}`.trim();
}

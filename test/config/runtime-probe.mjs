// Run by runtimes.test.ts under Node, Bun and Deno: loads the config of each folder given and
// resolves its plugins with the config loader and plugin resolver at the two module paths given,
// then prints one JSON array with a result per folder.
import { pathToFileURL } from "node:url";

const [loaderPath, resolverPath, ...dirs] = process.argv.slice(2);
const { loadConfig } = await import(pathToFileURL(loaderPath).href);
const { resolvePluginEntries } = await import(pathToFileURL(resolverPath).href);

const builtins = { fs: async () => ({ name: "fs", setup() {} }) };
const results = [];
for (const dir of dirs) {
  try {
    const { config, baseDir } = await loadConfig({ cwd: dir, trust: true });
    const resolved = await resolvePluginEntries(config.plugins ?? [], {
      baseDir,
      builtins,
      source: "plugins.config.ts",
    });
    const plugins = resolved.map(({ plugin, options, origin }) => ({ name: plugin.name, options, origin }));
    results.push({ config, plugins });
  } catch (error) {
    results.push({ error: error instanceof Error ? error.message : String(error) });
  }
}
process.stdout.write(JSON.stringify(results));

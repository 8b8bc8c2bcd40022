// Bundles the CLI and the library with esbuild, then emits type declarations with tsc.
// One bundled file starts much faster than hundreds of node_modules files (docs/benchmarks.md).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

// `npm test` builds everything: the example plugin packages compile against the declarations,
// and the API report check reads them. A bundle-only build (an end-to-end test's bundle) keeps
// the declarations the last full build made.
const bundleOnly = process.argv.includes("--bundle-only");
const dist = new URL("../dist/", import.meta.url);
if (bundleOnly) {
  for (const entry of readdirSafe(dist))
    if (entry !== "types") rmSync(new URL(entry, dist), { recursive: true, force: true });
} else {
  rmSync(dist, { recursive: true, force: true });
}

function readdirSafe(folder) {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

await build({
  entryPoints: { cli: "src/cli.ts", index: "src/index.ts", testing: "src/testing/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  sourcemap: "linked",
  legalComments: "linked",
  // jiti is large and needed only to load TypeScript configs on Node < 22.6: keep it out of the
  // bundle and import it on demand.
  // The MCP client is a peer dependency that only skills-kernel/testing uses: the test's own copy.
  external: ["jiti", "@modelcontextprotocol/client"],
  plugins: [
    {
      name: "lazy-yaml",
      setup(build) {
        build.onResolve({ filter: /^yaml$/ }, (args) =>
          args.kind === "import-statement" && /[\\/]src[\\/]skills[\\/]skill-md[\\/]/.test(args.importer)
            ? { path: "yaml", namespace: "lazy-yaml" }
            : undefined,
        );
        build.onLoad({ filter: /.*/, namespace: "lazy-yaml" }, () => ({
          contents: lazyYaml(),
          resolveDir: fileURLToPath(new URL("..", import.meta.url)),
        }));
      },
    },
    {
      name: "lazy-zod-locales",
      setup(build) {
        build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
          /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
            ? {
                path: fileURLToPath(new URL("../locales/index.js", `file://${args.importer}`)),
                namespace: "zod-locales",
              }
            : undefined,
        );
        build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
          contents: lazyZodLocales(args.path),
          resolveDir: dirname(args.path),
        }));
      },
    },
    {
      // A dependency's own source map can name files its package does not ship (the MCP SDK's
      // src/*.ts): chained through it, dist/*.map would point at sources no install has, and tools
      // that read the maps (vitest in a plugin package) warn about each. Reading the dependency
      // without its map puts the code that was bundled into sourcesContent instead.
      name: "dependency-sources",
      setup(build) {
        build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/, namespace: "file" }, async (args) => {
          const contents = await readFile(args.path, "utf8");
          if (!/^\/\/# sourceMappingURL=/m.test(contents)) return undefined;
          return {
            contents: contents.replace(/^\/\/# sourceMappingURL=.*$/gm, ""),
            loader: "js",
            resolveDir: dirname(args.path),
          };
        });
      },
    },
  ],
  // Bundled CommonJS dependencies call require() for Node built-ins; give the ESM bundle one.
  banner: {
    js: 'import { createRequire as __skCreateRequire } from "node:module"; const require = __skCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
});

/**
 * The yaml package as the SKILL.md parser and validator import it: evaluated on first use (still
 * its own chunk). Every start imported it with the parser and paid its evaluation, though the
 * fast frontmatter path reads plain frontmatter without it. A name the
 * source imports and this does not export fails the build. `require` inside a function: esbuild
 * bundles the package and calls its CommonJS wrapper there, not at import.
 */
function lazyYaml() {
  return `
let yaml;
const load = () => (yaml ??= require("yaml"));
export const isMap = (node) => load().isMap(node);
export const isScalar = (node) => load().isScalar(node);
export const parse = (...args) => load().parse(...args);
export const parseDocument = (...args) => load().parseDocument(...args);
export const visit = (...args) => load().visit(...args);
// Called with new: an object returned from a constructor is what new gives.
export function LineCounter() {
  return new (load().LineCounter)();
}
`;
}

/**
 * zod's `locales` namespace (`z.locales`, part of the `z` src/index.ts exports) holds 63 translations,
 * ~330 KB of the bundle that every start parsed, and zod itself uses only `en`. This keeps `en` in the
 * bundle and makes every other locale a function that loads zod's own CommonJS locales from
 * node_modules (zod is a dependency) on first call: `z.config(z.locales.fr())` still works.
 */
function lazyZodLocales(indexPath) {
  const lines = readFileSync(indexPath, "utf8").trim().split("\n");
  const names = lines.map((line) => /^export \{ default as (\w+) \} from "\.\/[\w-]+\.js";$/.exec(line)?.[1]);
  if (names.includes(undefined) || !names.includes("en"))
    throw new Error(`${indexPath} changed shape: update lazyZodLocales in scripts/build.mjs`);
  return [
    'export { default as en } from "./en.js";',
    'import { createRequire } from "node:module";',
    // Not require(): esbuild would bundle what a plain require() names.
    'const zodLocales = () => createRequire(import.meta.url)("zod/v4/locales");',
    ...names
      .filter((name) => name !== "en")
      .map((name) => `export const ${name} = (...args) => zodLocales().${name}(...args);`),
  ].join("\n");
}

if (bundleOnly) process.exit(0);

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });

// The public surface as API Extractor reports it, one report per package entry (etc/*.api.md),
// from the declarations `npm run build` emits. `--update` rewrites the reports; without it the
// script fails, naming the reports, when the surface differs from the checked-in ones
// (test/package/api-report.e2e.test.ts runs it in `npm test`).
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ENTRIES = [
  // What the main entry exports but does not declare is a gap in the public API: reported.
  { report: "skills-kernel", types: "dist/types/index.d.ts", forgotten: "warning" },
  // skills-kernel/testing's signatures name the main entry's types, which its own report holds.
  { report: "skills-kernel-testing", types: "dist/types/testing/index.d.ts", forgotten: "none" },
];

const configsFor = (reportFolder) =>
  ENTRIES.map((entry) =>
    ExtractorConfig.prepare({
      configObject: {
        projectFolder: ROOT,
        mainEntryPointFilePath: `<projectFolder>/${entry.types}`,
        // Only the declarations: the project's tsconfig would add src/ itself to the program.
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: "ES2022",
              lib: ["ES2023"],
              module: "NodeNext",
              moduleResolution: "NodeNext",
              strict: true,
              skipLibCheck: true,
              types: ["node"],
            },
            files: ENTRIES.map((e) => e.types),
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: `${entry.report}.api.md`,
          reportFolder,
          reportTempFolder: "<projectFolder>/node_modules/.cache/api-report/",
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // Release tags (@public, @beta) are not used: whatever an entry exports is public.
          extractorMessageReporting: {
            default: { logLevel: "warning", addToApiReportFile: true },
            "ae-missing-release-tag": { logLevel: "none" },
            "ae-undocumented": { logLevel: "none" },
            "ae-forgotten-export": { logLevel: entry.forgotten, addToApiReportFile: entry.forgotten !== "none" },
          },
          compilerMessageReporting: { default: { logLevel: "warning" } },
          tsdocMessageReporting: { default: { logLevel: "none" } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: `${ROOT}package.json`,
    }),
  );

let compilerState;

/**
 * The reports in `reportFolder` that differ from the public API the declarations describe (all
 * rewritten when `update`), as paths from the repo's root.
 */
export function apiReportDifferences(reportFolder = `${ROOT}etc/`, { update = false } = {}) {
  const configs = configsFor(reportFolder);
  // One TypeScript program for both entries, and for every call: building it is most of the time.
  compilerState ??= CompilerState.create(configs[0], {
    additionalEntryPoints: configs.slice(1).map((c) => c.mainEntryPointFilePath),
  });
  return configs.flatMap((config, i) => {
    const result = Extractor.invoke(config, {
      localBuild: update,
      compilerState,
      messageCallback: (message) => (message.handled = true),
    });
    return result.apiReportChanged ? [relative(ROOT, `${reportFolder}/${ENTRIES[i].report}.api.md`)] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes("--update");
  const changed = apiReportDifferences(undefined, { update });
  if (changed.length > 0 && !update) {
    console.error(
      `the public API differs from ${changed.join(" and ")}: run \`npm run build && npm run api:update\`, and commit the report`,
    );
    process.exit(1);
  }
}

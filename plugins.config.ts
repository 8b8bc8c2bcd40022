import { defineConfig } from "skills-kernel";

// The repo's own config: serve the demo skills in examples/skills with every built-in tool.
// A TypeScript config runs code, so it is used only when named:
// `npx skills-kernel --config plugins.config.ts` (docs/configuration.md#trust). Plugin entries are
// built-in short names, npm package names, relative module paths or inline plugin objects, each
// optionally as [entry, options]; leave out a tool to withhold it from agents.
export default defineConfig({
  plugins: [
    ["fs", { roots: [{ path: "./examples/skills", source: "examples" }] }],
    "list-skills",
    "search-skills", // step 1: find (ranker: the built-in BM25 one unless a ranker plugin is listed)
    "read-skill", // step 2: SKILL.md and its file list
    "fetch-skill-files", // step 3: only listed files
    "validate-skill",
    ["install-skill", { targets: { project: "./.claude/skills" } }],
    "skill-resources", // skill://<skill-path>/SKILL.md and the skill's files, read through resources/read
    "skills-extension", // skills/list, skills/get, resources/directory/read (the MCP Skills extension)
    "cache-stats", // get_cache_stats; the cache itself is cache-memory unless a cache plugin is listed
    "usage", // which skills are used and what was searched for in vain (skills-kernel usage, GET /v1/usage)
  ],
});

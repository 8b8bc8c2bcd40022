import { defineConfig } from "skills-kernel";

// The repo's own config, and the example to copy: serve the demo skills in examples/skills and
// offer the list_skills tool. Plugin entries are built-in short names, npm package names,
// relative module paths or inline plugin objects, each optionally as [entry, options].
export default defineConfig({
  plugins: [
    ["fs", { roots: [{ path: "./examples/skills", source: "examples" }] }],
    "list-skills",
  ],
});

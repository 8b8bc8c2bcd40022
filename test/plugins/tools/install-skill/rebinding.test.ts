import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, type SkillsKernel } from "../../../../src/create-kernel.js";
import { definePlugin } from "../../../../src/kernel/config.js";
import { createLogger } from "../../../../src/kernel/logger.js";
import type { HostLookup } from "../../../../src/remote/address-guard.js";
import { INTERNAL_TOKENS } from "../../../../src/internal-tokens.js";
import { startFixtureServer, type FixtureServer } from "../../../helpers/fixture-server.js";

/**
 * DNS rebinding against add_skill for a caller over HTTP: a name that resolves to a public address
 * when add_skill checks it and to 127.0.0.1 afterwards. The resolver is the kernel's (INTERNAL_TOKENS.HostLookup),
 * so the name needs no DNS server; the loopback server stands for what sits inside the firewall.
 */
const NAME = "skills.rebind.test";
const PUBLIC = "203.0.113.7";

const skill = (name: string) => `---\nname: ${name}\ndescription: Help for ${name}.\n---\n\n# ${name}\n`;

let base: string;
let inside: FixtureServer;
const kernels: SkillsKernel[] = [];

/** Answers PUBLIC the first time it is asked, then `later`; records every name asked for. */
function rebinding(later: string): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(
    async (hostname: string) => {
      asked.push(hostname);
      return [asked.length === 1 ? PUBLIC : later];
    },
    { asked },
  );
}

/** An add_skill call as a caller over HTTP makes it, on a kernel resolving names through `lookup`. */
async function addSkill(
  lookup: HostLookup,
  source: string,
  privateHosts: string[] = [],
): Promise<{ isError: boolean; text: string; dir: string }> {
  const dir = await mkdtemp(join(base, "project-"));
  await mkdir(join(dir, ".git"));
  await mkdir(join(dir, ".claude", "skills"), { recursive: true });
  const resolver = definePlugin({
    name: "test-lookup",
    provides: [INTERNAL_TOKENS.HostLookup],
    setup: (ctx) => ctx.provide(INTERNAL_TOKENS.HostLookup, lookup),
  });
  const kernel = await createKernel({
    config: { plugins: [resolver, ["fs", { roots: [".claude/skills"] }], ["install-skill", { privateHosts }]] },
    baseDir: dir,
    logger: createLogger("silent"),
  });
  kernels.push(kernel);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer({ remote: { writes: true } }).connect(serverSide);
  const client = new Client({ name: "rebinding-test", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: "add_skill", arguments: { source, agents: ["cursor"] } });
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
    return { isError: result.isError === true, text, dir };
  } catch (error) {
    return { isError: true, text: (error as Error).message, dir };
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "sk-rebinding-"));
  inside = await startFixtureServer({
    "/.well-known/skills/index.json": {
      body: JSON.stringify({ skills: [{ name: "site-help", description: "Help for the site.", files: ["SKILL.md"] }] }),
    },
    "/.well-known/skills/site-help/SKILL.md": { body: skill("site-help") },
  });
});

afterAll(async () => {
  await Promise.all(kernels.map((kernel) => kernel.close()));
  await inside?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const port = () => new URL(inside.url).port;

describe("add_skill over HTTP against a name that rebinds to loopback", () => {
  it("refuses a catalog whose name resolves to 127.0.0.1 once checked, and the loopback server hears nothing", async () => {
    const lookup = rebinding("127.0.0.1");
    const seen = inside.requests.length;
    const called = await addSkill(lookup, `http://${NAME}:${port()}/.well-known/skills/index.json`);
    expect(called.isError, called.text).toBe(true);
    expect(called.text).toContain(`${NAME} resolves to 127.0.0.1, which is a loopback, link-local or private address`);
    expect(lookup.asked.length).toBeGreaterThan(1);
    expect(inside.requests.length).toBe(seen);
    expect(existsSync(join(called.dir, ".agents", "skills", "site-help"))).toBe(false);
  });

  it("refuses an archive the same way", async () => {
    const lookup = rebinding("127.0.0.1");
    const seen = inside.requests.length;
    const called = await addSkill(lookup, `http://${NAME}:${port()}/skills.tar.gz`);
    expect(called.isError, called.text).toBe(true);
    expect(called.text).toContain(`${NAME} resolves to 127.0.0.1`);
    expect(inside.requests.length).toBe(seen);
  });

  it("pins git to the address it checked: a rebound name reaches no git server inside", async () => {
    const lookup = rebinding("127.0.0.1");
    const seen = inside.requests.length;
    const called = await addSkill(lookup, `https://${NAME}:${port()}/repo.git`);
    expect(called.isError, called.text).toBe(true);
    expect(called.text).toContain(`${NAME} resolves to 127.0.0.1`);
    expect(inside.requests.length).toBe(seen);
  });

  it("connects through the kernel's resolver: a host privateHosts names is fetched at the address it resolves to", async () => {
    const called = await addSkill(async () => ["127.0.0.1"], `http://${NAME}:${port()}/.well-known/skills/index.json`, [
      NAME,
    ]);
    expect(called, called.text).toMatchObject({ isError: false });
    expect(existsSync(join(called.dir, ".agents", "skills", "site-help", "SKILL.md"))).toBe(true);
    expect(inside.requests.at(-1)?.headers.host).toBe(`${NAME}:${port()}`);
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { INTERNAL_TOKENS } from "../../src/internal-tokens.js";
import {
  type CatalogSource,
  definePlugin,
  type HttpClient,
  parseSkillMd,
  remoteSource,
  SkillFileError,
  z,
} from "../../src/index.js";
import { skillMd, startTestKernel, type TestKernel } from "../../src/testing/index.js";
import { startFixtureServer, type FixtureServer } from "../helpers/fixture-server.js";

const running: TestKernel[] = [];
const servers: FixtureServer[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const test of running.splice(0)) await test.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** One skill per URL of a SKILL.md: a third party's remote source, written against the public kit. */
function skillAt(name: string, url: string, http: HttpClient): CatalogSource {
  let body: Uint8Array = new Uint8Array();
  const unread = async (_skill: string, file: string) => Promise.reject(new SkillFileError(file, "not served here"));
  return {
    name,
    description: url,
    async load(signal) {
      http.resetBudget();
      const answer = await http.get(url, { maxBytes: 64 * 1024, signal });
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
      body = answer.body;
      const text = new TextDecoder().decode(body);
      const parsed = parseSkillMd(text, { folderName: name, maxFrontmatterBytes: 64 * 1024, truncated: false });
      if (!parsed.ok) throw new Error(parsed.error.message);
      const { name: skill, description, frontmatter, excerpt } = parsed.skill;
      return { skills: [{ name: skill, description, frontmatter, excerpt, path: "", rank: 0 }], diagnostics: [] };
    },
    readDocument: async () => ({ bytes: body, size: body.byteLength, truncated: false }),
    listFiles: async () => ({ files: [], omitted: 0, complete: true }),
    readFile: unread,
  };
}

const skillUrls = remoteSource({
  name: "skill-urls",
  options: z.strictObject({
    urls: z.array(z.strictObject({ url: z.string(), name: z.string().optional() })).min(1),
    cacheDir: z.string(),
    retries: z.number().optional(),
    refusePrivateAddresses: z.strictObject({ privateHosts: z.array(z.string()) }).optional(),
  }),
  setup(_ctx, options, remote) {
    const names = remote.sourceNames(
      options.urls.map((entry) => ({ explicit: entry.name, fallback: new URL(entry.url).hostname })),
    );
    for (const [index, { url }] of options.urls.entries())
      remote.add(skillAt(names[index]!, url, remote.http({ name: names[index]! })), { scopes: ["team"] });
  },
});

/** The kernel's host lookup, a test's: every name is the loopback fixture server. */
const loopbackLookup = definePlugin({
  name: "test-lookup",
  provides: [INTERNAL_TOKENS.HostLookup],
  setup: (ctx) => ctx.provide(INTERNAL_TOKENS.HostLookup, async () => ["127.0.0.1"]),
});

async function serve(options: Record<string, unknown>) {
  const cacheDir = await mkdtemp(join(tmpdir(), "remote-source-"));
  folders.push(cacheDir);
  const test = await startTestKernel({
    plugins: [loopbackLookup, [skillUrls, { cacheDir, retries: 0, ...options }], "list-skills"],
  });
  running.push(test);
  return test;
}

async function fixtureServer(): Promise<FixtureServer> {
  const server = await startFixtureServer({ "/pdf/SKILL.md": { body: skillMd("pdf", "Fill in PDF forms.") } });
  servers.push(server);
  return server;
}

describe("remoteSource", () => {
  it("serves a plugin's sources under unique names, seen only as visibleTo says", async () => {
    const server = await fixtureServer();
    const url = `${server.url}/pdf/SKILL.md`;
    const { kernel } = await serve({ urls: [{ url }, { url }, { url, name: "mine" }] });
    expect(kernel.catalog.status().map((status) => `${status.source} ${status.state}`)).toEqual([
      "127.0.0.1 ok",
      "127.0.0.1-2 ok",
      "mine ok",
    ]);
    const caller = (scopes: string[]) => kernel.catalogFor({ subject: "a", scopes, claims: {} });
    expect(caller(["team"]).list()).toHaveLength(3);
    expect(caller(["other"]).list()).toHaveLength(0);
  });

  it("fails the setup for two sources of one name", async () => {
    const server = await fixtureServer();
    const url = `${server.url}/pdf/SKILL.md`;
    await expect(
      serve({
        urls: [
          { url, name: "same" },
          { url, name: "same" },
        ],
      }),
    ).rejects.toThrow(/two sources are both named "same"/);
  });

  it("guards its clients under refusePrivateAddresses, through the kernel's host lookup", async () => {
    const server = await fixtureServer();
    const url = `http://skills.example.test:${new URL(server.url).port}/pdf/SKILL.md`;
    const refused = await serve({ urls: [{ url }], refusePrivateAddresses: { privateHosts: [] } });
    expect(refused.kernel.catalog.status()[0]).toMatchObject({ state: "failed" });
    expect(refused.kernel.catalog.status()[0]?.error).toMatch(/resolves to 127\.0\.0\.1/);
    expect(server.requests).toEqual([]);
    const allowed = await serve({
      urls: [{ url }],
      refusePrivateAddresses: { privateHosts: ["skills.example.test"] },
    });
    expect(allowed.kernel.catalog.status()[0]).toMatchObject({ state: "ok", skills: 1 });
  });
});

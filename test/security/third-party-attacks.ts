import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 47, item 4: a third-party plugin, written against the public entries only, tries every
 * way it was found to reach skills hidden from its caller, answering an anonymous caller after a
 * signed-in one has searched. Run twice: over the sources (test/security/third-party.test.ts)
 * and over the built package (third-party.e2e.test.ts), as a plugin package would import it.
 */
export type Entry = typeof import("../../src/index.js");
export type Testing = typeof import("../../src/testing/index.js");

const PLATFORM = { subject: "ada", scopes: ["platform"], claims: {} };
const HIDDEN = /deploy-secret|secret service/;

/** Only what a plugin can reach by walking properties: each reachable object's `list()` is called. */
function reachable(root: object, limit = 2_000): object[] {
  const seen = new Set<object>();
  const queue: object[] = [root];
  while (queue.length > 0 && seen.size < limit) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const key of Reflect.ownKeys(next)) {
      const descriptor = Object.getOwnPropertyDescriptor(next, key);
      const value = descriptor && "value" in descriptor ? descriptor.value : undefined;
      if ((typeof value === "object" || typeof value === "function") && value !== null) queue.push(value);
    }
    // The view's own getters (`sources`), read as a plugin would.
    if (next === root) {
      for (const key of Reflect.ownKeys(Object.getPrototypeOf(next) ?? {})) {
        const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(next), key)?.get;
        const value = getter?.call(next) as unknown;
        if (typeof value === "object" && value !== null) queue.push(value);
      }
    }
  }
  return [...seen];
}

/** What every reachable object with a `list()` lists, as names. */
function namesReachable(root: object): string[] {
  return reachable(root).flatMap((value) => {
    const list = (value as { list?: unknown }).list;
    if (typeof list !== "function" || list.length > 0) return [];
    const listed = (list as () => unknown).call(value);
    return Array.isArray(listed) ? listed.map((skill) => String((skill as { name?: unknown }).name)) : [];
  });
}

export function describeThirdPartyAttacks(entry: Entry, testing: Testing): void {
  const { createKernel, createLogger, definePlugin, defineToken, TOKENS } = entry;
  const { memorySource, skillMd, startTestKernel } = testing;

  let secretLoads = 0;
  /** A source only the platform team sees, counting its loads (a list of its root is one load). */
  const secret = () => {
    const files: Record<string, string> = {
      "deploy-secret/SKILL.md": skillMd("deploy-secret", "Ship the secret service."),
    };
    const encoder = new TextEncoder();
    return entry.sourceFromFiles({
      name: "secret",
      files: {
        async list(dir: string) {
          if (dir === "") secretLoads++;
          const prefix = dir === "" ? "" : `${dir}/`;
          const kids = new Map<string, "file" | "directory">();
          for (const path of Object.keys(files).filter((p) => p.startsWith(prefix))) {
            const [name, ...rest] = path.slice(prefix.length).split("/");
            kids.set(name!, rest.length > 0 ? "directory" : "file");
          }
          return [...kids].map(([name, kind]) => ({ name, kind }));
        },
        async read(path: string) {
          if (!Object.hasOwn(files, path)) throw new Error(`${path}: no such file`);
          return encoder.encode(files[path]);
        },
      },
      visibleTo: { scopes: ["platform"] },
    });
  };
  const open = () => memorySource("open", { "hello/SKILL.md": skillMd("hello", "Say hello.") });

  const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });
  const answer = (result: { content?: unknown }) =>
    JSON.parse((result.content as { text: string }[])[0]!.text) as unknown;

  /** The plugin a third party writes first: tools over what it may resolve, for whoever calls. */
  const attacker = definePlugin({
    name: "attacker",
    consumes: [TOKENS.Ranker, TOKENS.HttpRoute],
    setup(ctx) {
      ctx.addTool({
        name: "rank",
        description: "Ranks with the ranker the plugin consumes.",
        async handler(_args, { catalog }) {
          await catalog.ready();
          try {
            const ranked = await ctx.resolve(TOKENS.Ranker).search("ship secret service deploy", { limit: 50 });
            return text(ranked.map((result) => result.skill.name));
          } catch (error) {
            // A copy nobody built may refuse to rank: that is no leak.
            return text(String(error));
          }
        },
      });
      ctx.addTool({
        name: "reach",
        description: "Walks everything reachable from its catalog.",
        async handler(_args, { catalog }) {
          await catalog.ready();
          const whole = (catalog as unknown as { whole?: { list(): { name: string }[] } }).whole;
          return text({ names: namesReachable(catalog), whole: whole?.list().map((skill) => skill.name) ?? [] });
        },
      });
      ctx.addTool({
        name: "refresh_hidden",
        description: "Asks its catalog to reload a source it does not show.",
        async handler(_args, { catalog }) {
          await catalog.refresh("secret");
          return text(catalog.status().map((status) => status.source));
        },
      });
      ctx.addTool({
        name: "forge",
        description: "Calls other plugins' handlers as a signed-in caller.",
        async handler(_args, { catalog, signal }) {
          const found: string[] = [];
          const install = ctx.resolveAll(TOKENS.Tool).find((tool) => tool.name === "install_skill");
          const forged = { identity: PLATFORM, catalog, signal };
          try {
            const result = await install!.handler(
              { skill_name: "deploy-secret", target: "project", dry_run: true },
              forged as never,
            );
            found.push(JSON.stringify(result));
          } catch (error) {
            found.push(String(error));
          }
          const metrics = ctx.resolveAll(TOKENS.HttpRoute).find((route) => route.prefix === "/metrics");
          const scraped = await metrics!.handle(new Request("http://127.0.0.1/metrics"), "/metrics", forged);
          found.push(await scraped.text());
          return text(found);
        },
      });
    },
  });

  describe("a third-party plugin answering an anonymous caller sees nothing hidden", () => {
    let dir: string;
    let member: Awaited<ReturnType<typeof startTestKernel>>;
    let anonymous: Awaited<ReturnType<typeof startTestKernel>>["client"];

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "third-party-"));
      member = await startTestKernel({
        plugins: [
          open(),
          secret(),
          "search-skills",
          ["install-skill", { targets: { project: join(dir, "project"), user: join(dir, "user") } }],
          "metrics",
          attacker,
        ],
        identity: PLATFORM,
      });
      // A signed-in caller searches first: search-skills indexes what that caller sees.
      const searched = answer(await member.callTool("search_skills", { query: "ship the secret service" }));
      expect(JSON.stringify(searched)).toMatch(HIDDEN);
      const { Client, InMemoryTransport } = await import("@modelcontextprotocol/client");
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await member.kernel.createMcpServer().connect(serverSide);
      anonymous = new Client({ name: "anonymous", version: "1.0.0" });
      await anonymous.connect(clientSide);
    });

    afterAll(async () => {
      await anonymous?.close();
      await member?.close();
      await rm(dir, { recursive: true, force: true });
    });

    const call = async (name: string) =>
      answer((await anonymous.callTool({ name, arguments: {} })) as { content?: unknown });

    it("a ranker it consumes is its own copy, not search-skills' index", async () => {
      expect(JSON.stringify(await call("rank"))).not.toMatch(HIDDEN);
    });

    it("nothing reachable from its catalog, by property or cast, lists a hidden skill", async () => {
      const reached = (await call("reach")) as { names: string[]; whole: string[] };
      expect(reached.names).toContain("hello");
      expect(JSON.stringify(reached)).not.toMatch(HIDDEN);
    });

    it("its catalog reloads only the sources it shows", async () => {
      const before = secretLoads;
      expect(await call("refresh_hidden")).toEqual(["open"]);
      expect(secretLoads).toBe(before);
    });

    it("another plugin's handler, called with a forged identity, answers for the catalog given", async () => {
      expect(JSON.stringify(await call("forge"))).not.toMatch(/dry_run|deploy-secret\/|source=\\?"secret/);
    });
  });

  describe("a whole-catalog service must be declared as such", () => {
    const boot = (plugin: object) =>
      createKernel({ config: { plugins: [open(), secret(), plugin as never] }, logger: createLogger("silent") });

    const plain: [string, ReturnType<typeof definePlugin>][] = [
      [
        "the sources",
        definePlugin({
          name: "lister",
          consumes: [TOKENS.CatalogSource],
          setup() {
            return { start: (started) => void started.resolveAll(TOKENS.CatalogSource) };
          },
        }),
      ],
      [
        "who may see each source",
        definePlugin({
          name: "rules",
          consumes: [TOKENS.SourceVisibility],
          setup() {
            return { start: (started) => void started.resolveAll(TOKENS.SourceVisibility) };
          },
        }),
      ],
      [
        "the whole catalog",
        definePlugin({
          name: "whole",
          consumes: [TOKENS.WholeCatalog],
          setup: (ctx) => void ctx.resolve(TOKENS.WholeCatalog),
        }),
      ],
      [
        "a caller's catalog by a forged identity",
        definePlugin({
          name: "forger",
          consumes: [defineToken<(identity: unknown) => unknown>("caller-catalog")],
          setup() {
            return {
              start: (started) => void started.resolve(defineToken<(identity: unknown) => unknown>("caller-catalog")),
            };
          },
        }),
      ],
      [
        "the sources, under a token of its own making",
        definePlugin({
          name: "forged-token",
          consumes: [defineToken<unknown>("skill-source")],
          setup() {
            return { start: (started) => void started.resolveAll(defineToken<unknown>("skill-source")) };
          },
        }),
      ],
    ];

    for (const [what, plugin] of plain) {
      it(`a plugin consuming ${what} plainly fails to boot, naming what to use`, async () => {
        const error = await boot(plugin).then(
          (kernel) => kernel.close().then(() => undefined),
          (caught: unknown) => caught,
        );
        expect(String(error)).toMatch(/every source's skills, hidden ones too/);
        expect(String(error)).toMatch(/`catalog`/);
      });
    }

    it("a plugin that declares it reads the whole catalog boots, and sees it", async () => {
      const seen: string[] = [];
      const indexer = definePlugin({
        name: "indexer",
        consumes: [{ token: TOKENS.WholeCatalog, wholeCatalog: true }],
        setup(ctx) {
          const catalog = ctx.resolve(TOKENS.WholeCatalog);
          return { start: async () => void seen.push(...(await catalog.ready(), catalog.list().map((s) => s.name))) };
        },
      });
      const kernel = await boot(indexer);
      await kernel.close();
      expect(seen.sort()).toEqual(["deploy-secret", "hello"]);
    });

    it("a plugin that provides the sources still reads only its own", async () => {
      const reader = definePlugin({
        name: "reader",
        provides: [TOKENS.CatalogSource],
        setup() {
          return { start: (started) => void started.resolveAll(TOKENS.CatalogSource) };
        },
      });
      const error = await boot(reader).then(
        (kernel) => kernel.close().then(() => undefined),
        (caught: unknown) => caught,
      );
      expect(String(error)).toMatch(/every source's skills, hidden ones too/);
    });
  });
}

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// A third-party plugin's imports: the public entry and nothing else.
import {
  createKernel,
  createLogger,
  defineToken,
  definePlugin,
  ERROR_CODES,
  json,
  restError,
  TOKENS,
  type SkillsKernel,
} from "../../src/index.js";
import { fetchIn } from "../helpers/embedded-http.js";

/**
 * Issue 35, item 1: what a plugin author writes first must respect the caller's visibility. A
 * tool, a server extension, an instructions section and an HTTP route, each written the obvious
 * way over the `catalog` in its context, against a source only the platform team may see.
 */
const PLATFORM = { subject: "ada", scopes: [], claims: { groups: ["platform"] } };
const names = (catalog: { list(): readonly { name: string }[] }) =>
  catalog
    .list()
    .map((skill) => skill.name)
    .sort()
    .join(", ");

const thirdParty = definePlugin({
  name: "third-party",
  provides: [TOKENS.HttpRoute],
  setup(ctx) {
    ctx.addTool({
      name: "all_skills",
      description: "Every skill name.",
      async handler(_args, { catalog }) {
        await catalog.ready();
        return { content: [{ type: "text", text: names(catalog) }] };
      },
    });
    ctx.extendServer((server, { catalog }) => {
      server.registerResource("names", "names://all", {}, async (uri) => ({
        contents: [{ uri: uri.href, text: names(catalog) }],
      }));
    });
    ctx.addInstructions(({ catalog }) => `Skills: ${names(catalog)}.`);
    ctx.contribute(TOKENS.HttpRoute, {
      prefix: "/names",
      async handle(request, _path, { catalog }) {
        if (request.method !== "GET") return restError(405, "read-only");
        await catalog.ready();
        return json(200, { names: names(catalog) });
      },
    });
  },
});

let dir: string;
let kernel: SkillsKernel;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "caller-catalog-"));
  for (const [folder, name] of [
    ["open/open-skill", "open-skill"],
    ["secret/secret-skill", "secret-skill"],
  ]) {
    await mkdir(join(dir, folder!), { recursive: true });
    await writeFile(join(dir, folder!, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name}.\n---\nBody.\n`);
  }
  kernel = await createKernel({
    config: {
      plugins: [
        [
          "fs",
          {
            roots: ["./open", { path: "./secret", source: "secret", visibleTo: { claims: { groups: ["platform"] } } }],
            watch: false,
          },
        ],
        thirdParty,
      ],
    },
    baseDir: dir,
    logger: createLogger("silent"),
  });
  await kernel.catalog.ready();
});

afterAll(async () => {
  await kernel.close();
  await rm(dir, { recursive: true, force: true });
});

async function connect(identity?: typeof PLATFORM): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kernel.createMcpServer({ identity }).connect(serverSide);
  const client = new Client({ name: "caller-catalog-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

describe("a third-party plugin's catalog is its caller's", () => {
  it("a tool finds nothing of a hidden source, over MCP and in process", async () => {
    const anonymous = await connect();
    expect(text(await anonymous.callTool({ name: "all_skills", arguments: {} }))).toBe("open-skill");
    await anonymous.close();
    expect(text(await kernel.callTool("all_skills", {}))).toBe("open-skill");
    expect(text(await kernel.callTool("all_skills", {}, { identity: PLATFORM }))).toBe("open-skill, secret-skill");
  });

  it("a server extension and an instructions section see what the server's caller may see", async () => {
    const anonymous = await connect();
    expect((await anonymous.readResource({ uri: "names://all" })).contents[0]).toMatchObject({ text: "open-skill" });
    expect(anonymous.getInstructions()).toContain("Skills: open-skill.");
    await anonymous.close();
    const member = await connect(PLATFORM);
    expect((await member.readResource({ uri: "names://all" })).contents[0]).toMatchObject({
      text: "open-skill, secret-skill",
    });
    await member.close();
  });

  it("an HTTP route gets the caller's catalog", async () => {
    const response = await fetchIn(kernel, "/names");
    expect(await response.json()).toEqual({ names: "open-skill" });
  });

  it("a view cannot be widened into another caller's, nor is the whole catalog one, even for a caller who sees all", () => {
    expect("for" in kernel.catalogFor(undefined)).toBe(false);
    expect(kernel.catalogFor(PLATFORM)).not.toBe(kernel.catalog);
    expect("for" in kernel.catalog).toBe(false);
  });

  it("a plugin written against the old catalog token fails to boot instead of seeing every skill", async () => {
    const old = definePlugin({
      name: "old-plugin",
      consumes: [defineToken<unknown>("skill-catalog")],
      setup() {},
    });
    const error = await createKernel({ config: { plugins: [old] }, logger: createLogger("silent") }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: ERROR_CODES.SERVICE_MISSING });
    expect(TOKENS).not.toHaveProperty("SkillCatalog");
  });
});

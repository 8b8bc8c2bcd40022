// What an answer carries at each protocol revision, over Streamable HTTP from the shipped bundle:
// a tool's result once as text (what most hosts hand the model) and once as structuredContent (the
// spec's SHOULD, for code), and nothing else repeated. 2026-07-28 adds `resultType` and, as the
// spec asks of every result, who answered: a name and a version, not the icons server/discover carries.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, SERVER_INFO_META_KEY, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_IDENTITY } from "../../src/kernel/server-identity.js";
import { startHttpServer, type HttpServerProcess } from "../helpers/http-server.js";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];

const CALLS = [
  { name: "search_skills", arguments: { query: "tables in a PDF" } },
  { name: "list_skills", arguments: { format: "json" } },
  { name: "read_skill", arguments: { name: "pdf-tables" } },
];

interface Answer {
  /** The JSON-RPC response's bytes as sent (an SSE event's data at 2025-11-25). */
  readonly bytes: number;
  readonly result: Record<string, unknown>;
}

/** Each tool call's answer and the server/discover answer, as the client received them. */
async function answersAt(server: HttpServerProcess, revision: Revision) {
  const bodies: string[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    for (const frame of response.headers.get("content-type")?.startsWith("text/event-stream")
      ? text.split("\n").flatMap((line) => (line.startsWith("data: ") ? [line.slice(6)] : []))
      : [text])
      if (frame.includes('"result"')) bodies.push(frame);
    return response;
  };
  const client = new Client(
    { name: "answer-sizes", version: "0" },
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : undefined,
  );
  await client.connect(new StreamableHTTPClientTransport(server.mcpUrl, { fetch: recording }));
  const identity = client.getServerVersion();
  const tools: Answer[] = [];
  for (const call of CALLS) {
    bodies.length = 0;
    await client.callTool(call);
    const body = bodies.at(-1)!;
    tools.push({ bytes: Buffer.byteLength(body), result: (JSON.parse(body) as { result: Answer["result"] }).result });
  }
  await client.close();
  return { identity, tools };
}

describe("answers over HTTP at both revisions", () => {
  let work: string;
  let server: HttpServerProcess;
  const answers = {} as Record<Revision, Awaited<ReturnType<typeof answersAt>>>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "skills-kernel-answer-sizes-"));
    for (const [name, description] of [
      ["pdf-tables", "Extract tables from PDF files into CSV."],
      ["commit-message", "Write a conventional commit message for staged changes."],
    ] as const) {
      await mkdir(join(work, name));
      await writeFile(
        join(work, name, "SKILL.md"),
        `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`,
      );
    }
    server = await startHttpServer(["--skills-dir", work], { cwd: work });
    for (const revision of REVISIONS) answers[revision] = await answersAt(server, revision);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it("carry a search's result once as text and once as structuredContent, nothing else", () => {
    for (const revision of REVISIONS) {
      const { content, structuredContent, ...rest } = answers[revision].tools[0]!.result;
      expect(content).toEqual([{ type: "text", text: JSON.stringify(structuredContent) }]);
      expect(Object.keys(rest)).toEqual(revision === "2026-07-28" ? ["resultType", "_meta"] : []);
    }
  });

  it("differ between revisions by resultType and a name and version alone", () => {
    for (const [at, modern] of answers["2026-07-28"].tools.entries()) {
      const legacy = answers["2025-11-25"].tools[at]!;
      const { resultType, _meta, ...result } = modern.result;
      expect(result).toEqual(legacy.result);
      expect(resultType).toBe("complete");
      expect(_meta).toEqual({ [SERVER_INFO_META_KEY]: { name: "skills-kernel", version: SERVER_IDENTITY.version } });
      // Those two members and the comma before them; a few digits more of a JSON-RPC id at most.
      expect(modern.bytes - legacy.bytes).toBeLessThanOrEqual(JSON.stringify({ resultType, _meta }).length + 2);
    }
  });

  it("say the whole identity, icons included, where a client learns it", () => {
    expect(answers["2026-07-28"].identity).toEqual(SERVER_IDENTITY);
    expect(answers["2025-11-25"].identity).toEqual(SERVER_IDENTITY);
  });
});

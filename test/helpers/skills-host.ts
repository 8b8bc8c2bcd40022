import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { parse } from "yaml";
import { expect } from "vitest";
import { z } from "zod";

// What a host of the MCP Skills extension does with a server: the checks the specification asks
// of it (size, digest and frontmatter against the entry), written from the host's side only.

export const SkillResourceSchema = z.strictObject({
  uri: z.string(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  size: z.number().int().min(0),
});

export const SkillSchema = z.strictObject({
  uri: z.string(),
  frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
  resources: z.array(SkillResourceSchema),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type Skill = z.infer<typeof SkillSchema>;

// resultType and the caching hints are 2026-07-28 wire fields: a 2025-11-25 answer has none.
const complete = {
  resultType: z.literal("complete").optional(),
  ttlMs: z.number().int().min(0).optional(),
  cacheScope: z.enum(["public", "private"]).optional(),
};

export const ListSkillsResultSchema = z.looseObject({
  ...complete,
  skills: z.array(SkillSchema),
  nextCursor: z.string().optional(),
});

export const GetSkillResultSchema = z.looseObject({
  ...complete,
  skill: SkillSchema,
});

export const DirectoryResultSchema = z.looseObject({
  ...complete,
  resources: z.array(
    z.looseObject({ uri: z.string(), name: z.string(), mimeType: z.string().optional(), size: z.number().optional() }),
  ),
  nextCursor: z.string().optional(),
});

/** Every entry of skills/list, page by page, and how many pages it took. */
export async function listAllSkills(client: Client): Promise<{ skills: Skill[]; pages: number }> {
  const skills: Skill[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      ListSkillsResultSchema,
    );
    skills.push(...page.skills);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { skills, pages };
}

/** The raw bytes of a resources/read result: text as UTF-8, a blob from base64. */
export async function readBytes(client: Client, uri: string): Promise<Buffer> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  const [content] = contents;
  return "text" in content!
    ? Buffer.from(content.text as string, "utf8")
    : Buffer.from(content!.blob as string, "base64");
}

/**
 * Reads every file of the entry and checks it as a host must before using it: its size and
 * digest, and for SKILL.md its frontmatter, parsed here as a host would, field by field.
 */
export async function verifySkill(client: Client, skill: Skill): Promise<void> {
  expect(skill.resources[0]?.uri).toBe(skill.uri);
  expect(new Set(skill.resources.map((resource) => resource.uri)).size).toBe(skill.resources.length);
  const skillPath = skill.uri.slice(0, -"/SKILL.md".length);
  expect(skillPath.split("/").at(-1)).toBe(skill.frontmatter.name);
  for (const resource of skill.resources) {
    expect(resource.uri.startsWith(`${skillPath}/`)).toBe(true);
    const bytes = await readBytes(client, resource.uri);
    expect(bytes.length, resource.uri).toBe(resource.size);
    expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`, resource.uri).toBe(resource.digest);
    if (resource.uri === skill.uri) expect(hostFrontmatter(bytes)).toEqual(skill.frontmatter);
  }
}

/** A host's reading of a SKILL.md's frontmatter: YAML 1.2 core, as most hosts parse it. */
export function hostFrontmatter(bytes: Buffer): unknown {
  const text = bytes
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n");
  const match = /^---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(text);
  if (!match) throw new Error("no frontmatter");
  return parse(match[1]!, { schema: "core" });
}

/** The JSON-RPC error of a request expected to fail. */
export async function requestError(
  client: Client,
  method: string,
  params: unknown,
): Promise<{ code: number; message: string }> {
  const error = await client.request({ method, params: params as Record<string, unknown> }, z.unknown()).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `${method} ${JSON.stringify(params)} should fail`).toBeInstanceOf(Error);
  return error as { code: number; message: string };
}

import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { auditSkill, catalogReader } from "../../../skills/audit/audit-skill.js";
import { SIGNATURE_FILE } from "../../../skills/signing/manifest.js";
import { signatureStatus } from "../../../skills/signing/status.js";
import { extractFrontmatter } from "../../../skills/skill-md/skill-md.js";
import { decodeText, SHOWN_FILES_LIMIT, withoutSecrets } from "../../../skills/files/skill-files.js";
import type { SkillPolicy } from "../../../skills/policy.js";
import { TOKENS } from "../../../tokens.js";
import { HTTP_TOKENS, type RouteCaller } from "../http/index.js";
import { CONTENT_SECURITY_POLICY, html, page } from "./html.js";
import { renderMarkdown } from "./markdown.js";
import { listPage, matching, skillPage } from "./pages.js";

const optionsSchema = z
  .object({
    /** Bytes of a SKILL.md the page renders; the rest is left out, and the page says so. */
    maxDocumentBytes: z.number().int().positive().default(256 * 1024),
    /** Search queries longer than this are cut: the page searches in memory, per request. */
    maxQueryChars: z.number().int().positive().default(200),
  })
  .strict();

/** Headers on every page: no script may run, nothing may frame it, and nothing is guessed or kept. */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/**
 * A read-only catalog page on the http transport: the list at GET / with a search form, and a
 * page per skill at GET /skill/<qualified id> with its SKILL.md rendered, its files, its audit
 * findings and its signature. Server-rendered HTML that needs no JavaScript and runs none.
 */
export default definePlugin({
  name: "catalog-page",
  provides: [HTTP_TOKENS.Route],
  consumes: [{ token: TOKENS.SkillPolicy, optional: true }],
  options: optionsSchema,
  needsTrust: { plugin: "it serves pages on the HTTP listener" },
  setup(ctx, options) {
    const policy = ctx.resolveOptional(TOKENS.SkillPolicy);
    const answer = (status: number, body: string | null, extra: Record<string, string> = {}) =>
      new Response(body, { status, headers: { ...PAGE_HEADERS, ...extra } });
    const refuse = (path: string, status: number, message: string, extra?: Record<string, string>) => {
      const root = rootFor(path);
      return answer(status, page("Not here", "", html`<h1>${message}</h1><p><a href="${root}">All skills</a></p>`, root), extra);
    };
    // Every page reads the catalog as its caller may see it (per-team visibility), and only so.
    const guarded = (handle: (request: Request, path: string, shown: CatalogView) => Promise<Response>) => async (request: Request, path: string, caller: RouteCaller) => {
      if (request.method !== "GET" && request.method !== "HEAD") return refuse(path, 405, "This catalog is read-only.", { allow: "GET, HEAD" });
      const response = await handle(request, path, caller.catalog);
      return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
    };
    ctx.contribute(HTTP_TOKENS.Route, {
      prefix: "/",
      handle: guarded(async (request, path, shown) => {
        if (path !== "/") return refuse(path, 404, "Nothing here.");
        await shown.ready();
        const skills = shown.list();
        const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, options.maxQueryChars).trim();
        return answer(200, listPage(skills, matching(skills, query), query));
      }),
    });
    ctx.contribute(HTTP_TOKENS.Route, {
      prefix: "/skill",
      handle: guarded(async (request, path, shown) => {
        let id: string;
        try {
          id = decodeURIComponent(path.slice("/skill/".length));
        } catch {
          return refuse(path, 400, "Malformed percent-encoding in the path.");
        }
        await shown.ready();
        const skill = shown.list().find((candidate) => candidate.qualifiedId === id);
        if (!skill) return refuse(path, 404, "No such skill.");
        return answer(200, await renderSkill(shown, policy, skill, options.maxDocumentBytes, request.signal));
      }),
    });
  },
});

/** The relative way from a page at `path` back to the list page (`/skill/x` → `../`). */
function rootFor(path: string): string {
  const depth = path.split("/").length - 2;
  return depth <= 0 ? "./" : "../".repeat(depth);
}

async function renderSkill(
  catalog: CatalogView,
  policy: SkillPolicy | undefined,
  skill: CatalogSkill,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  const reader = catalogReader(catalog, skill);
  const [document, listed, findings] = await Promise.all([
    catalog.readDocument(skill, maxBytes, signal),
    catalog.listFiles(skill, SHOWN_FILES_LIMIT, signal),
    auditSkill(reader, signal),
  ]);
  const text = decodeText(document.bytes, document.truncated);
  const split = extractFrontmatter(text, { maxFrontmatterBytes: maxBytes, truncated: document.truncated });
  const hasSignature = listed.files.some((file) => file.path === SIGNATURE_FILE);
  const signature = await signatureStatus(reader, hasSignature, policy?.allowedSigners, signal);
  return skillPage({
    skill,
    body: renderMarkdown("body" in split ? split.body : text),
    truncated: document.truncated,
    files: withoutSecrets(listed, false),
    findings,
    signature,
  });
}

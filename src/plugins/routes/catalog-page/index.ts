import { z } from "zod";
import { definePlugin } from "../../../kernel/config.js";
import { errorMessage } from "../../../kernel/errors.js";
import type { Logger } from "../../../kernel/logger.js";
import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { CatalogView } from "../../../skills/catalog/catalog-view.js";
import { auditSkill } from "../../../skills/audit/audit-skill.js";
import { catalogReader } from "../../../skills/files/skill-reader.js";
import { SIGNATURE_FILE } from "../../../skills/signing/manifest.js";
import { signatureStatus } from "../../../skills/signing/status.js";
import { extractFrontmatter } from "../../../skills/skill-md/skill-md.js";
import {
  decodeText,
  encodeContent,
  fetchSkillFiles,
  SHOWN_FILES_LIMIT,
  withoutSecrets,
} from "../../../skills/files/skill-files.js";
import type { SkillPolicy } from "../../../skills/policy.js";
import { TOKENS } from "../../../tokens.js";
import type { SkillUsage } from "../../../skills/usage/report.js";
import { isOperator, type HttpOptions, type RouteCaller, type RouteRequest } from "../../transports/http/index.js";
import { html, trusted, type Markup } from "./html.js";
import { rootFor } from "./location.js";
import { lookUp } from "./lookup.js";
import { renderMarkdown } from "./markdown.js";
import { candidatesPage, filePage, listPage, matching, skillPage } from "./pages.js";
import { answer, notice } from "./respond.js";
import { CookieSealer } from "./session.js";
import { accountMarkup, PageSignIn } from "./sign-in.js";
import { usagePage } from "./usage-page.js";

const optionsSchema = z
  .object({
    /** Bytes of a SKILL.md, or of another file of a skill, the page shows; the rest is left out, and the page says so. */
    maxDocumentBytes: z
      .number()
      .int()
      .positive()
      .default(256 * 1024),
    /** Search queries longer than this are cut: the page searches in memory, per request. */
    maxQueryChars: z.number().int().positive().default(200),
    /**
     * With the http plugin's `oauth`: the OAuth client id the page signs in as, a public client
     * (authorization code with PKCE, no secret) registered at the issuer with the redirect URI
     * `<page>/sign-in/callback`.
     */
    oauthClientId: z.string().min(1).optional(),
    /** Scopes the page asks the issuer for. Default: the http plugin's `oauth.requiredScopes`. */
    oauthScopes: z.array(z.string().min(1)).optional(),
    /**
     * The key that seals the page's cookies, at least 32 characters. Default: a random key per
     * process, so a restart signs every browser out; replicas behind one name need the same one.
     */
    sessionSecret: z.string().min(32, "sessionSecret must be at least 32 characters").optional(),
    /** How long a sign-in lasts at most; an OAuth sign-in ends with its token besides. */
    sessionMaxAgeSec: z
      .number()
      .int()
      .positive()
      .default(8 * 60 * 60),
    /** Believe `X-Forwarded-Proto: https` from the proxy in front (it ends TLS): cookies are Secure, redirects https. */
    trustForwardedProto: z.boolean().default(false),
  })
  .strict();

/**
 * A read-only catalog page on the http transport: the list at GET / with a search form, a page per
 * skill at GET /skill/<qualified id or unique name>/ with its SKILL.md rendered, its files, its
 * audit findings and its signature, and each of its files at /skill/<id>/<path>. Server-rendered
 * HTML that needs no JavaScript and runs none. On a server with auth, a browser signs in at
 * /sign-in (sign-in.ts).
 */
export default definePlugin({
  name: "catalog-page",
  provides: [TOKENS.HttpRoute],
  consumes: [
    { token: TOKENS.SkillPolicy, optional: true },
    { token: TOKENS.HttpOptions, optional: true, fromStart: true },
    // The usage page, for operators, when the config counts usage: every caller's misses are in it.
    { token: TOKENS.Usage, optional: true, fromStart: true, wholeCatalog: true },
  ],
  options: optionsSchema,
  needsTrust: { plugin: "it serves pages on the HTTP listener" },
  setup(ctx, options) {
    const policy = ctx.resolveOptional(TOKENS.SkillPolicy);
    const signIn = new PageSignIn(new CookieSealer(options.sessionSecret), options, ctx.logger);
    const session = signIn.session.bind(signIn);
    let http: HttpOptions | undefined;
    let usage: SkillUsage | undefined;
    // Every page reads the catalog as its caller may see it (per-team visibility), and only so.
    const guarded =
      (
        handle: (
          request: RouteRequest,
          path: string,
          shown: CatalogView,
          account: Markup | undefined,
        ) => Promise<Response>,
      ) =>
      async (request: RouteRequest, path: string, caller: RouteCaller) => {
        if (request.method !== "GET" && request.method !== "HEAD")
          return notice(405, "This catalog is read-only.", rootFor(path), [], { allow: "GET, HEAD" });
        const response = await handle(
          request,
          path,
          caller.catalog,
          accountMarkup(signIn.account(request), rootFor(path)),
        );
        return request.method === "HEAD"
          ? new Response(null, { status: response.status, headers: response.headers })
          : response;
      };
    ctx.contribute(TOKENS.HttpRoute, {
      prefix: "/",
      signIn: session,
      handle: guarded(async (request, path, shown, account) => {
        if (path !== "/") return notice(404, "Nothing here.", rootFor(path));
        await shown.ready();
        const skills = shown.list();
        const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, options.maxQueryChars).trim();
        return answer(200, listPage(skills, matching(skills, query), query, account));
      }),
    });
    ctx.contribute(TOKENS.HttpRoute, {
      prefix: "/usage",
      signIn: session,
      handle: async (request, path, caller) =>
        guarded(async (request, path, shown, account) => {
          const root = rootFor(path);
          // Not found for everyone but operators: the page says nothing of what others asked for.
          if (path !== "/usage" || !usage || !isOperator(http, caller, usage.operatorScope))
            return notice(404, "Nothing here.", root);
          const given = new URL(request.url).searchParams.get("days");
          const days = given !== null && /^\d+$/.test(given) ? Number(given) : 30;
          if (days < 1 || days > usage.retentionDays)
            return notice(400, `Days go from 1 to ${usage.retentionDays}.`, root);
          await shown.ready();
          try {
            return answer(200, usagePage(await usage.report({ days, catalog: shown }), root, account));
          } catch (error) {
            ctx.logger.warn(`cannot read the usage figures: ${errorMessage(error)}`);
            return notice(503, "The usage figures cannot be read now; try again later.", root);
          }
        })(request, path, caller),
    });
    ctx.contribute(TOKENS.HttpRoute, {
      prefix: "/skill",
      signIn: session,
      handle: guarded(async (request, path, shown, account) => {
        const root = rootFor(path);
        const rest = path.slice("/skill/".length);
        const slash = rest.indexOf("/");
        // The skill's page ends in "/", so that relative links in its SKILL.md reach its files.
        if (slash === -1)
          return rest === "" ? notice(404, "Nothing here.", root) : answer(308, null, { location: `./${rest}/` });
        let id: string;
        let filePath: string;
        try {
          id = decodeURIComponent(rest.slice(0, slash));
          filePath = decodeURIComponent(rest.slice(slash + 1));
        } catch {
          return notice(400, "Malformed percent-encoding in the path.", root);
        }
        await shown.ready();
        const found = lookUp(shown.list(), id);
        if ("none" in found) return notice(404, "No such skill.", root);
        if ("candidates" in found) return answer(300, candidatesPage(id, found.candidates, root, account));
        if (filePath === "")
          return answer(
            200,
            await renderSkill(shown, policy, found.skill, options.maxDocumentBytes, root, account, request.signal),
          );
        if (filePath === "SKILL.md") return answer(303, null, { location: "./" });
        const download = new URL(request.url).searchParams.has("download");
        return serveFile(
          shown,
          found.skill,
          filePath,
          { maxBytes: options.maxDocumentBytes, root, account, download },
          ctx.logger,
        );
      }),
    });
    // Sign-in and sign-out: answered by `signIn` itself on a server with auth; without it, nothing to do.
    for (const prefix of ["/sign-in", "/sign-out"]) {
      ctx.contribute(TOKENS.HttpRoute, {
        prefix,
        signIn: (request, path, gate) => signIn.answer(request, path, gate),
        handle: async (_request, path) =>
          notice(
            404,
            "No sign-in here: this server asks for none, or the request brought its own token.",
            rootFor(path),
          ),
      });
    }
    return {
      start(started) {
        http = started.resolveOptional(TOKENS.HttpOptions);
        usage = started.resolveOptional(TOKENS.Usage);
        // Said at start, not first at a browser's sign-in: the operator reads the log, a reader cannot fix it.
        if (started.resolveOptional(TOKENS.HttpOptions)?.oauth !== undefined && options.oauthClientId === undefined) {
          ctx.logger.warn(
            "with oauth, browsers cannot sign in to the catalog page until its oauthClientId option names the page's OAuth client",
          );
        }
      },
    };
  },
});

interface FileView {
  readonly maxBytes: number;
  readonly root: string;
  readonly account: Markup | undefined;
  readonly download: boolean;
}

/**
 * One of a skill's files, by the rules the fetch tool keeps: a relative path that cannot step out
 * of the folder, among the files the source lists, never one named like credentials. Markdown is
 * rendered as SKILL.md is, other text escaped, and a binary file only offered as a download.
 */
async function serveFile(
  catalog: CatalogView,
  skill: CatalogSkill,
  path: string,
  view: FileView,
  logger: Logger,
): Promise<Response> {
  const [fetched] = await fetchSkillFiles(
    catalog,
    skill,
    [path],
    { maxFileBytes: view.maxBytes, includeSecretFiles: false },
    logger,
  );
  if (fetched === undefined || "error" in fetched)
    return notice(404, `Not served: ${fetched?.error ?? "no such file"}.`, view.root);
  const { file } = fetched;
  const content = encodeContent(file.bytes, file.truncated);
  if (view.download) {
    if (file.truncated) return notice(413, "This file is larger than this page serves.", view.root);
    const name = path.slice(path.lastIndexOf("/") + 1);
    return answer(200, file.bytes, {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    });
  }
  const shown =
    content.encoding === "base64"
      ? undefined
      : /\.(md|markdown)$/i.test(path)
        ? trusted(renderMarkdown(content.content))
        : html`<pre>${content.content}</pre>`;
  return answer(
    200,
    filePage({
      skill,
      path,
      shown,
      size: file.size,
      truncated: file.truncated,
      root: view.root,
      account: view.account,
    }),
  );
}

async function renderSkill(
  catalog: CatalogView,
  policy: SkillPolicy | undefined,
  skill: CatalogSkill,
  maxBytes: number,
  root: string,
  account: Markup | undefined,
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
    root,
    account,
  });
}

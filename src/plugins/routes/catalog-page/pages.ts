import type { CatalogSkill } from "../../../skills/catalog/catalog-types.js";
import type { AuditFinding } from "../../../skills/audit/types.js";
import { describeSignature, type SignatureStatus } from "../../../skills/signing/status.js";
import type { SkillFileListing } from "../../../skills/types.js";
import { html, page, trusted, type Markup } from "./html.js";

/**
 * Where a skill's page is, relative to the list page. It ends in "/", so that the links inside
 * its SKILL.md (`forms.md`, `references/x.md`) resolve to its files.
 */
export function skillHref(skill: CatalogSkill): string {
  return `skill/${encodeURIComponent(skill.qualifiedId)}/`;
}

/** Where one of a skill's files is, relative to the skill's page. */
export function fileHref(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** The skills whose id, name or description holds every word of the query (case-insensitive). */
export function matching(skills: readonly CatalogSkill[], query: string): readonly CatalogSkill[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length === 0) return skills;
  return skills.filter((skill) => {
    const text = `${skill.qualifiedId} ${skill.name} ${skill.description}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export function listPage(
  skills: readonly CatalogSkill[],
  shown: readonly CatalogSkill[],
  query: string,
  account?: Markup,
): string {
  const heading =
    query === ""
      ? `${skills.length} skill${skills.length === 1 ? "" : "s"}`
      : `${shown.length} of ${skills.length} skill${skills.length === 1 ? "" : "s"} match “${query}”`;
  return page(
    query === "" ? "All skills" : `Search: ${query}`,
    query,
    html`<h1>${heading}</h1>
<ul class="skills">${shown.map(
      (skill) =>
        html`<li><a href="${skillHref(skill)}">${skill.id}</a> <span class="source">${skill.source}</span><br>${skill.description}</li>`,
    )}</ul>`,
    "./",
    account,
  );
}

export interface SkillPageParts {
  readonly skill: CatalogSkill;
  /** The markdown body of SKILL.md, rendered safely. */
  readonly body: string;
  readonly truncated: boolean;
  readonly files: SkillFileListing & { withheld: number };
  readonly findings: readonly AuditFinding[];
  readonly signature: SignatureStatus;
  /** The way back to the list page. */
  readonly root: string;
  readonly account?: Markup;
}

export function skillPage({
  skill,
  body,
  truncated,
  files,
  findings,
  signature,
  root,
  account,
}: SkillPageParts): string {
  const more = files.omitted + files.withheld;
  return page(
    skill.name,
    "",
    html`<h1>${skill.name}</h1>
<p class="source">${skill.qualifiedId} · source ${skill.source}${skill.shadowed ? " · shadowed by a skill of the same name" : ""}</p>
<p>${skill.description}</p>
<h2>Signature</h2><p>${describeSignature(signature)}</p>
<h2>Audit</h2>${
      findings.length === 0
        ? html`<p>No findings.</p>`
        : html`<ul>${findings.map(
            (finding) =>
              html`<li class="finding-${finding.severity}"><strong>${finding.severity}</strong> ${finding.rule}: ${finding.file}${finding.line > 0 ? `:${finding.line}` : ""}: ${finding.message}</li>`,
          )}</ul>`
    }
<h2>Files</h2>${
      files.files.length === 0
        ? html`<p>SKILL.md alone.</p>`
        : html`<table><thead><tr><th>Path</th><th>Bytes</th></tr></thead><tbody>${files.files.map(
            (file) => html`<tr><td><a href="${fileHref(file.path)}">${file.path}</a></td><td>${file.size}</td></tr>`,
          )}</tbody></table>`
    }${more > 0 ? html`<p class="muted">${more} more not shown.</p>` : ""}
<h2>SKILL.md</h2><article>${trusted(body)}</article>${truncated ? html`<p class="muted">SKILL.md is longer; the rest is not shown.</p>` : ""}`,
    root,
    account,
  );
}

/** A plain name several skills in the caller's view share: each, by the id that reaches it. */
export function candidatesPage(
  name: string,
  candidates: readonly CatalogSkill[],
  root: string,
  account?: Markup,
): string {
  return page(
    name,
    "",
    html`<h1>${candidates.length} skills are named ${name}</h1>
<ul class="skills">${candidates.map(
      (skill) =>
        html`<li><a href="${root}${skillHref(skill)}">${skill.qualifiedId}</a> <span class="source">${skill.source}</span><br>${skill.description}</li>`,
    )}</ul>`,
    root,
    account,
  );
}

export interface FilePageParts {
  readonly skill: CatalogSkill;
  readonly path: string;
  /** The file's text rendered (markdown) or escaped (anything else); undefined for a binary file. */
  readonly shown: Markup | undefined;
  readonly size: number;
  readonly truncated: boolean;
  readonly root: string;
  readonly account?: Markup;
}

/** One of a skill's files: text as a page, a binary file named with its size and a download link. */
export function filePage({ skill, path, shown, size, truncated, root, account }: FilePageParts): string {
  const skillPageHref = "../".repeat(path.split("/").length - 1) || "./";
  const name = path.slice(path.lastIndexOf("/") + 1);
  return page(
    `${path} · ${skill.name}`,
    "",
    html`<h1>${path}</h1>
<p class="source"><a href="${skillPageHref}">${skill.qualifiedId}</a> · ${size} bytes</p>${
      shown === undefined
        ? html`<p>A binary file: not shown here.${truncated ? html` It is larger than this page serves.` : html` <a href="${fileHref(name)}?download" download>Download it</a>.`}</p>`
        : html`<article>${shown}</article>${truncated ? html`<p class="muted">The file is longer; the rest is not shown.</p>` : ""}`
    }`,
    root,
    account,
  );
}

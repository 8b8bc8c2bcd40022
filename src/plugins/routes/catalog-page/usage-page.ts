import { usesOf } from "../../../skills/usage/read-report.js";
import type { UsageReport } from "../../../skills/usage/report.js";
import { html, page, type Markup } from "./html.js";

/** Never-used skills listed before "and N more". */
const LISTED_UNUSED = 100;

const when = (iso: string | null) => (iso === null ? "" : iso.slice(0, 16).replace("T", " "));

/**
 * The operators' page: most used skills, those never used in the report's days, and what was
 * asked for but not found. Every value is escaped (the `html` tag): names and queries come from
 * the store, which whoever may write it may have written.
 */
export function usagePage(report: UsageReport, root: string, account?: Markup): string {
  const used = report.skills.filter((skill) => usesOf(skill) + skill.searchHits > 0);
  const unused = report.skills.filter((skill) => usesOf(skill) + skill.searchHits === 0);
  const span = report.days === 1 ? "today" : `the last ${report.days} days`;
  return page(
    "Usage",
    "",
    html`<h1>Usage in ${span}</h1>
<p class="muted">${[1, 7, 30, 90].map((days) => html` <a href="?days=${days}">${days === 1 ? "today" : `${days} days`}</a>`)}</p>
<h2>Most used</h2>${
      used.length === 0
        ? html`<p>No skill was used.</p>`
        : html`<table><thead><tr><th>Skill</th><th>Source</th><th>Reads</th><th>Fetches</th><th>Installs</th><th>Found</th><th>First</th><th>Last used</th></tr></thead><tbody>${used.map(
            (skill) =>
              html`<tr><td>${skill.name}</td><td>${skill.source}</td><td>${skill.reads}</td><td>${skill.fetches}</td><td>${skill.installs}</td><td>${skill.searchHits}</td><td>${skill.firstHits}</td><td>${when(skill.lastUsed)}</td></tr>`,
          )}</tbody></table>`
    }
<h2>Never used in ${span}</h2>${
      unused.length === 0
        ? html`<p>Every skill was used.</p>`
        : html`<ul>${unused.slice(0, LISTED_UNUSED).map((skill) => html`<li>${skill.name} <span class="source">${skill.source}</span></li>`)}</ul>${
            unused.length > LISTED_UNUSED ? html`<p class="muted">and ${unused.length - LISTED_UNUSED} more.</p>` : ""
          }`
    }
<h2>Asked for but not found</h2>${
      report.misses.length === 0
        ? html`<p>Every search found something.</p>`
        : html`<table><thead><tr><th>Query</th><th>Times</th><th>Callers</th><th>Last seen</th></tr></thead><tbody>${report.misses.map(
            (miss) =>
              html`<tr><td>${miss.query}</td><td>${miss.count}</td><td>${miss.callers}</td><td>${when(miss.lastSeen)}</td></tr>`,
          )}</tbody></table>`
    }`,
    root,
    account,
  );
}

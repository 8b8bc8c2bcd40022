import { createHash } from "node:crypto";

/** Text for an HTML element or a quoted attribute: the five characters HTML gives meaning to, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A template tag whose every interpolation is escaped, unless it is markup made by `html` itself. */
export interface Markup {
  readonly markup: string;
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += toMarkup(value) + strings[index + 1]!;
  });
  return { markup };
}

/** Markup from a trusted renderer (the markdown renderer), taken as is. */
export function trusted(markup: string): Markup {
  return { markup };
}

function toMarkup(value: unknown): string {
  if (Array.isArray(value)) return value.map(toMarkup).join("");
  if (typeof value === "object" && value !== null && "markup" in value) return (value as Markup).markup;
  if (value === undefined || value === null || value === false) return "";
  return escapeHtml(String(value));
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
header,main{max-width:60rem;margin:0 auto;padding:1rem}
header{border-bottom:1px solid #ddd}
header a{color:inherit;text-decoration:none;font-weight:600}
form{display:flex;gap:.5rem;margin:.5rem 0}
input[type=search]{flex:1;padding:.4rem;font:inherit}
button{padding:.4rem .8rem;font:inherit}
ul.skills{list-style:none;padding:0}
ul.skills li{padding:.6rem 0;border-bottom:1px solid #eee}
.source,.muted{color:#555;font-size:.9rem}
.account{float:right;margin:0}.account span{color:#555}
label{display:flex;gap:.5rem;align-items:center}input[type=password]{flex:1;padding:.4rem;font:inherit}
.finding-high{color:#a40000}.finding-medium{color:#8a5300}
pre{background:#f5f5f5;padding:.6rem;overflow:auto}
article{border-top:1px solid #ddd;margin-top:1rem}
table{border-collapse:collapse}td,th{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #eee}
`;

/**
 * The page's one stylesheet is inline, allowed by its hash: the policy then names no script
 * source at all, so nothing a skill holds can run, and there is no second request to make.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * A whole page: the same header and search form on every page. Links are relative (`root` is
 * the way back to the list page), so the page works wherever the handler is mounted. `account`
 * is who is signed in, with the sign-out button, when the server has sign-in.
 */
export function page(title: string, query: string, body: Markup, root: string, account?: Markup): string {
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · skills</title><style>${trusted(STYLE)}</style></head>
<body><header><a href="${root}">Skills catalog</a>${account}
<form method="get" action="${root}" role="search"><input type="search" name="q" value="${query}" aria-label="Search skills" placeholder="Search skills"><button type="submit">Search</button></form></header>
<main>${body}</main></body></html>`.markup
  }`;
}

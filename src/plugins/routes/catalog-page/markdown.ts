import MarkdownIt from "markdown-it";

/**
 * SKILL.md to HTML that cannot run anything: raw HTML in the markdown is escaped as text
 * (`html: false`), links keep markdown-it's own check (no javascript:, vbscript:, file: or
 * data: URLs), and images are not rendered at all, so a skill cannot make a reader's browser
 * fetch anything. The page's Content-Security-Policy forbids scripts besides.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable("image");

// Every link leaves the page without telling where it came from, or giving the target a handle on it.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet("rel", "noopener noreferrer nofollow");
  return defaultLinkOpen(tokens, index, options, env, self);
};

export function renderMarkdown(text: string): string {
  return markdown.render(text);
}

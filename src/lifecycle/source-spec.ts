import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { ConfigError } from "../kernel/errors.js";
import { expandHome } from "../skills/files/paths.js";
import { parseRepositorySpec, redactCredentials, type RepositorySpec } from "../remote/git/spec.js";

/** Where skills are added from, as `add SOURCE` names it. */
export type SourceSpec =
  | { readonly kind: "git"; readonly written: string; readonly repository: RepositorySpec }
  | { readonly kind: "catalog"; readonly written: string; readonly url: string }
  | { readonly kind: "local"; readonly written: string; readonly folder: string }
  /** A `.tar.gz`, `.tgz` or `.zip` of skills: an http(s) URL, or a file's absolute path. */
  | { readonly kind: "archive"; readonly written: string; readonly location: string };

/** SOURCE plus the skills named with it (`SOURCE@skill`, `owner/repo/skill`). */
export interface ParsedSource {
  readonly spec: SourceSpec;
  readonly skill?: string;
}

const SKILL_NAME = /^[A-Za-z0-9._-]+$/;
const OWNER_REPO_SKILL = /^([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)\/([A-Za-z0-9._-]+)((?:#[^:]*)?(?::.*)?)$/;

/**
 * Parses SOURCE: an archive (a file or an http(s) URL ending in `.tar.gz`, `.tgz` or `.zip`), a local folder (a path that starts with `/`, `.` or `~`, or names a folder here),
 * a catalog (an http(s) URL ending in `.json`, a well-known folder, or a site: see isCatalogUrl), or a repository as
 * `--git` takes it (owner/repo, any git URL including file://, with #REF and :PATH). Any of them may
 * end in `@skill` to add that skill alone; `owner/repo/skill` is the same for GitHub shorthand.
 */
export function parseSource(text: string, cwd: string): ParsedSource {
  let rest = text.trim();
  let skill: string | undefined;
  const at = rest.lastIndexOf("@");
  if (at > 0 && SKILL_NAME.test(rest.slice(at + 1))) {
    skill = rest.slice(at + 1);
    rest = rest.slice(0, at);
  } else {
    const shorthand = OWNER_REPO_SKILL.exec(rest);
    if (shorthand) {
      skill = shorthand[2];
      rest = `${shorthand[1]}${shorthand[3]}`;
    }
  }
  return { spec: parseSpec(rest, text, cwd), skill };
}

function parseSpec(text: string, written: string, cwd: string): SourceSpec {
  if (text === "") throw new ConfigError(`"${written}" names no source`);
  if (ARCHIVE_NAME.test(text.replace(/[?#].*$/, ""))) return archiveSpec(text, written, cwd);
  if (/^(?:\/|\.|~)/.test(text) || (!text.includes("://") && isFolder(resolve(cwd, text)))) {
    const folder = resolve(cwd, expandHome(text, homedir()));
    if (!isFolder(folder)) throw new ConfigError(`${folder} is not a folder`);
    return { kind: "local", written, folder };
  }
  if (isCatalogUrl(text)) return { kind: "catalog", written, url: text };
  try {
    // A user name and password in the URL go to git alone: never to the lock, a message or a log.
    return { kind: "git", written: redactCredentials(written), repository: parseRepositorySpec(text) };
  } catch (error) {
    throw new ConfigError(
      `${(error as Error).message}; a source is a repository, a catalog URL (…json) or a local folder`,
    );
  }
}

const ARCHIVE_NAME = /\.(?:tar\.gz|tgz|zip)$/i;

function archiveSpec(text: string, written: string, cwd: string): SourceSpec {
  if (/^https?:\/\//i.test(text)) {
    if (!URL.canParse(text)) throw new ConfigError(`"${redactCredentials(written)}" is not a valid URL`);
    // The lock records the URL: a password in it would be committed with the project.
    if (new URL(text).username !== "")
      throw new ConfigError(
        `${redactCredentials(text)}: an archive URL holds no user name or password; a token goes in SKILLS_KERNEL_CATALOG_TOKEN`,
      );
    return { kind: "archive", written, location: text };
  }
  if (text.includes("://")) throw new ConfigError(`"${written}" is neither an archive file nor an http(s) URL`);
  const file = resolve(cwd, expandHome(text, homedir()));
  if (!isFile(file)) throw new ConfigError(`${file} is not a file`);
  return { kind: "archive", written, location: file };
}

/** Hosts whose http(s) URLs are repositories, never a site's discovery index. */
const GIT_HOSTS: ReadonlySet<string> = new Set(["github.com", "gitlab.com", "bitbucket.org", "codeberg.org"]);

/**
 * An http(s) URL of a catalog: a .json document, a well-known folder, or a site whose
 * /.well-known/agent-skills (or /.well-known/skills) index is read, as `npx skills` takes it.
 * A URL on a git host, or with `.git`, a `#ref` or a `:path` after its path, is a repository.
 */
function isCatalogUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  if (/\.json(?:[?#].*)?$/i.test(text) || /\/\.well-known\/(?:agent-skills|skills)(?:\/|$)/.test(text)) return true;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    !GIT_HOSTS.has(url.hostname.toLowerCase()) &&
    !/\.git(?:\/|$)/.test(url.pathname) &&
    !url.pathname.includes(":") &&
    url.hash === "" &&
    url.username === ""
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The lock's `sourceType` for a source. */
export function sourceType(spec: SourceSpec): string {
  return spec.kind;
}

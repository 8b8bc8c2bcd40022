import { ConfigError } from "../kernel/errors.js";
import { defaultSourceName, parseRepositorySpec } from "../plugins/git/spec.js";

/** What `add` installs: every skill of a repository, or one of them. */
export interface AddTarget {
  /** The repository as `--git` takes it. */
  readonly repository: string;
  /** The name of the git source serving it. */
  readonly source: string;
  readonly skill?: string;
}

const OWNER_REPO_SKILL = /^([A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)(?:\/|@)([A-Za-z0-9._-]+)((?:#[^:]*)?(?::.*)?)$/;

/**
 * `owner/repo`, `owner/repo/skill`, `owner/repo@skill` (as `npx skills add` spells it), or any
 * `--git` repository (a URL, with #REF and :PATH), with `--skill NAME` to pick one skill.
 */
export function parseAddTarget(text: string, skillOption: string | undefined): AddTarget {
  const match = OWNER_REPO_SKILL.exec(text);
  const repository = match ? `${match[1]}${match[3]}` : text;
  const skill = match ? match[2] : skillOption;
  if (match && skillOption !== undefined && skillOption !== match[2]) {
    throw new ConfigError(`"${text}" names the skill "${match[2]}" already; --skill says "${skillOption}"`);
  }
  let source: string;
  try {
    source = defaultSourceName(parseRepositorySpec(repository));
  } catch (error) {
    throw new ConfigError(`add: ${(error as Error).message}`);
  }
  return { repository, source, skill };
}

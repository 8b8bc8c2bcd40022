/**
 * Words and phrases that name the same thing in software and agent work, as a user would expect a
 * search to treat them: abbreviations (k8s, db, repo), formats and the things they hold (xlsx,
 * spreadsheet), and the vocabulary of neighbouring fields (slides, deck). Each set is general
 * knowledge, not a reading of any catalog: it must hold for skills nobody has written yet.
 *
 * A word of a set is indexed as itself and also as the set's concept term, so a query word finds
 * its synonyms through the concept while an exact word still scores higher (it matches both).
 * Members are matched on the word as written, plurals folded, never on its Porter stem: "present"
 * (the verb) must not become "presentation".
 */
const SYNONYM_SETS: readonly (readonly string[])[] = [
  // Abbreviations and spellings of one name.
  ["kubernetes", "k8s", "kube"],
  ["javascript", "js", "ecmascript"],
  ["typescript", "ts"],
  ["python", "py"],
  ["postgresql", "postgres", "psql", "pg"],
  ["golang", "go lang"],
  ["dotnet", "net framework", "csharp"],
  ["database", "db", "databases", "rdbms"],
  ["repository", "repo", "repositories"],
  ["documentation", "docs", "doc"],
  ["configuration", "config", "configs", "configure", "configuring", "settings"],
  ["authentication", "authn", "auth", "login", "log in", "sign in", "signin"],
  ["authorization", "authz", "permissions", "access control", "rbac"],
  ["application", "app", "apps", "applications"],
  ["environment", "env", "environments"],
  ["dependency", "dependencies", "deps", "dep"],
  ["specification", "spec", "specs"],
  ["message", "msg", "messages"],
  ["image", "img", "picture", "photo", "pic", "images", "pictures", "photos", "pics"],
  ["statistics", "stats", "statistical"],
  ["mathematics", "math", "maths"],
  ["development", "dev", "developing"],
  ["production", "prod"],
  ["administration", "admin", "administrator"],
  ["information", "info"],
  ["regular expression", "regex", "regexp"],
  ["asynchronous", "async"],
  ["vulnerability", "vulnerabilities", "vuln", "vulns", "cve"],
  ["performance", "perf"],
  ["accessibility", "a11y"],
  [
    "internationalization",
    "i18n",
    "localization",
    "l10n",
    "localisation",
    "internationalisation",
    "translation",
    "translate",
  ],
  // Fields and their abbreviations.
  ["machine learning", "ml"],
  ["artificial intelligence", "ai"],
  ["large language model", "language model", "llm", "llms"],
  ["natural language processing", "nlp"],
  ["user interface", "ui", "gui"],
  ["user experience", "ux"],
  ["frontend", "front end", "client side"],
  ["backend", "back end", "server side"],
  ["continuous integration", "ci"],
  ["continuous delivery", "continuous deployment"],
  ["pull request", "pr", "prs", "merge request", "mr"],
  ["command line", "cli", "terminal", "shell"],
  ["amazon web services", "aws"],
  ["google cloud", "gcp", "google cloud platform"],
  ["infrastructure as code", "iac"],
  ["optical character recognition", "ocr"],
  ["text to speech", "tts", "speech synthesis"],
  ["speech to text", "stt", "speech recognition", "transcription", "transcribe"],
  ["search engine optimization", "seo"],
  ["content management system", "cms"],
  // Formats and what they hold.
  ["spreadsheet", "excel", "xlsx", "xls", "spreadsheets", "workbook"],
  ["presentation", "slides", "slide deck", "deck", "powerpoint", "pptx", "ppt", "slideshow", "keynote"],
  ["word document", "docx", "word doc", "ms word", "microsoft word"],
  ["pdf", "pdfs", "portable document format"],
  ["csv", "comma separated", "tsv"],
  ["yaml", "yml"],
  ["diagram", "diagrams", "flowchart", "flowcharts"],
  ["chart", "charts", "plot", "plots", "graphing", "plotting"],
  ["visualization", "visualisation", "visualize", "visualise", "dataviz", "viz"],
  ["email", "mail", "inbox"],
  ["video", "videos", "movie", "clip", "footage"],
  ["audio", "sound", "music"],
  ["animation", "animated", "animate", "gif", "gifs"],
  // The same action in other words.
  ["scrape", "scraping", "scraper", "crawl", "crawling", "crawler", "web scraping"],
  ["bug", "bugs", "defect", "defects"],
  ["error", "errors", "exception", "exceptions"],
  ["debug", "debugging", "troubleshoot", "troubleshooting", "diagnose"],
  ["test", "tests", "testing", "unit test", "qa"],
  ["deploy", "deploying", "deployment", "deployments", "ship", "release", "releases", "releasing"],
  ["changelog", "change log", "release notes"],
  ["refactor", "refactoring", "restructure", "clean up", "cleanup"],
  ["summarize", "summarise", "summary", "summaries", "tldr", "recap"],
  ["analyze", "analyse", "analysis", "analyses", "analyzing", "analysing"],
  ["monitor", "monitoring", "observability", "telemetry"],
  ["log", "logs", "logging"],
  ["secret", "secrets", "credential", "credentials", "api key", "api keys"],
  ["cost", "costs", "pricing", "billing", "spend"],
  ["schedule", "scheduling", "cron"],
];

export interface SynonymTable {
  /** Folded single words to their concept terms. */
  readonly words: ReadonlyMap<string, string>;
  /** Phrases by their first folded word: the remaining words, and the concept term. */
  readonly phrases: ReadonlyMap<string, readonly { rest: readonly string[]; concept: string }[]>;
}

/**
 * Plural folding for synonym lookup only (the index uses Porter stems): the S-stemmer of
 * D. Harman, "How effective is suffixing?" (1991).
 */
export function foldPlural(word: string): string {
  if (word.length > 3 && word.endsWith("ies") && !word.endsWith("eies") && !word.endsWith("aies"))
    return word.slice(0, -3) + "y";
  if (word.length > 3 && word.endsWith("es") && !/(?:aes|ees|oes)$/.test(word)) return word.slice(0, -1);
  if (word.length > 2 && word.endsWith("s") && !/(?:us|ss)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Concept terms start with "~", which no indexed word can (words are letters and digits). */
function conceptTerm(set: readonly string[]): string {
  return `~${set[0]!.replace(/\s+/g, "_")}`;
}

export function buildSynonymTable(
  sets: readonly (readonly string[])[],
  split: (phrase: string) => string[],
): SynonymTable {
  const words = new Map<string, string>();
  const phrases = new Map<string, { rest: string[]; concept: string }[]>();
  for (const set of sets) {
    const concept = conceptTerm(set);
    for (const member of set) {
      const parts = split(member).map(foldPlural);
      if (parts.length === 1) words.set(parts[0]!, concept);
      else if (parts.length > 1) {
        const list = phrases.get(parts[0]!) ?? [];
        list.push({ rest: parts.slice(1), concept });
        phrases.set(parts[0]!, list);
      }
    }
  }
  return { words, phrases };
}

export { SYNONYM_SETS };

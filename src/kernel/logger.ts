/**
 * A minimal leveled logger that writes one line per record to stderr. stdout belongs to the
 * JSON-RPC stream of the stdio transport, so nothing here ever touches it.
 */
/** The levels from quietest to most verbose: a logger writes its own level and every one before it. */
export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
/** One of {@link LOG_LEVELS}: the `logLevel` a config sets and a logger filters by. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The logger a plugin gets as `ctx.logger`: one line per message on stderr, prefixed with its name. */
export interface Logger {
  /** The most verbose level this logger writes; a plugin can skip building costly debug text below it. */
  readonly level: LogLevel;
  /** Something failed that the operator must act on. */
  error(message: string): void;
  /** Something went wrong but the kernel carries on (a skill left out, a source degraded). */
  warn(message: string): void;
  /** A milestone an operator expects to see (a source loaded, a transport listening). */
  info(message: string): void;
  /** Detail for diagnosing a problem, stack traces included; off by default. */
  debug(message: string): void;
  /** A logger at the same level whose prefix adds `:name`, for a part of a plugin. */
  child(name: string): Logger;
}

/** Where a logger writes each formatted line (stderr by default; a test can collect them). */
export type LogSink = (line: string) => void;

const stderrSink: LogSink = (line) => {
  process.stderr.write(line + "\n");
};

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * A logger writing lines at `level` and above as `[prefix] level: message` to `sink` (stderr by
 * default), for an embedder or a test that needs one outside the kernel.
 */
export function createLogger(level: LogLevel = "info", sink: LogSink = stderrSink, prefix = "skills-kernel"): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const emit = (at: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(at) <= rank) sink(`[${prefix}] ${at}: ${message}`);
  };
  return {
    level,
    error: (m) => emit("error", m),
    warn: (m) => emit("warn", m),
    info: (m) => emit("info", m),
    debug: (m) => emit("debug", m),
    child: (name) => createLogger(level, sink, `${prefix}:${name}`),
  };
}

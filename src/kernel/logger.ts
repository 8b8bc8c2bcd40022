/**
 * A minimal leveled logger that writes one line per record to stderr. stdout belongs to the
 * JSON-RPC stream of the stdio transport, so nothing here ever touches it.
 */
export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  readonly level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  child(name: string): Logger;
}

export type LogSink = (line: string) => void;

const stderrSink: LogSink = (line) => {
  process.stderr.write(line + "\n");
};

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

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

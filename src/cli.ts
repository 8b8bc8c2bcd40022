#!/usr/bin/env node
import { processIo } from "./cli/io.js";
import { main } from "./cli/main.js";

const code = await main(process.argv.slice(2), processIo());
process.exitCode = code;
// Exit once stdout has flushed (exit() at once could cut a large answer to a pipe short), even if
// a plugin still holds a timer or a socket open: one that timed out in setup must not keep a
// failed boot alive until its own timer ends.
process.stdout.write("", () => process.exit(code));

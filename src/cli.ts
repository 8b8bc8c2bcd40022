#!/usr/bin/env node
import { main } from "./cli/main.js";

// exitCode, not exit(): stdout may still be flushing a large answer to a pipe.
process.exitCode = await main(process.argv.slice(2));

// Preloaded into a one-shot command by bench/scale.mjs (node --import): at exit, writes the
// process's CPU time (user + system, every thread) to stderr as `bench-cpu-ms N`, so a harness
// can read it whatever the command prints.
import { writeSync } from "node:fs";

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  writeSync(2, `\nbench-cpu-ms ${(user + system) / 1000}\n`);
});

// Preloaded into a server by bench/work-bounds.mjs (`node --import ./bench/loop-delay.mjs ...`):
// once a second, the event loop's delay over that second on stderr, as
// `loop-delay p50 MS p99 MS max MS`. A request that arrives while the loop is held waits that long.
import { monitorEventLoopDelay } from "node:perf_hooks";

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const ms = (ns) => (ns / 1e6).toFixed(1);
setInterval(() => {
  process.stderr.write(
    `loop-delay p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)}\n`,
  );
  delay.reset();
}, 1000).unref();

// Writes docs/agents.md from the agents table (src/lifecycle/agents.ts).
import { writeFileSync } from "node:fs";
import { renderAgentsDoc } from "../src/lifecycle/agents-doc.js";

writeFileSync(new URL("../docs/agents.md", import.meta.url), renderAgentsDoc());

// The package's own name resolves to this checkout's dist/ (node_modules/skills-kernel links here):
// the plugin is built against the public entries exactly as a plugin package is.
import * as entry from "skills-kernel";
import * as testing from "skills-kernel/testing";
import { describeThirdPartyAttacks, type Entry, type Testing } from "./third-party-attacks.js";

describeThirdPartyAttacks(entry as unknown as Entry, testing as unknown as Testing);

import * as entry from "../../src/index.js";
import * as testing from "../../src/testing/index.js";
import { describeThirdPartyAttacks } from "./third-party-attacks.js";

// Over the sources, in the unit suite; third-party.e2e.test.ts runs the same against the built package.
describeThirdPartyAttacks(entry, testing);

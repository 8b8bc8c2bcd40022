import { skill } from "../ranker-bm25/skills.js";

/** Four skills; only the fixture server's vectors find the first for "nightfall" (near "dusk"). */
export const SKILLS = [
  skill({
    name: "dusk-photo-editor",
    description: "Retouches photographs taken at dusk: colour, noise, white balance.",
  }),
  skill({ name: "invoice-generator", description: "Creates PDF invoices from a list of line items and a customer." }),
  skill({ name: "commit-message-writer", description: "Writes conventional commit messages from staged changes." }),
  skill({ name: "csv-tools", description: "Converts, filters and validates CSV files." }),
];

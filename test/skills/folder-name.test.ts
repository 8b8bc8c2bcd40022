import { describe, expect, it } from "vitest";
import { installFolderName } from "../../src/skills/skill-md/folder-name.js";

describe("installFolderName", () => {
  it.each([
    ["pdf", "skills/anything", "pdf"],
    ["Ahrefs Automation", "vendor/Ahrefs Automation", "ahrefs-automation"],
    ["Ahrefs Automation", "skills/ahrefs", "ahrefs"],
    ["../sneaky", "sneaky", "sneaky"],
    ["Émile--Zola_", "", "emile-zola"],
    ["!!!", "???", "!!!"],
  ])("%s from %s installs as %s", (name, folder, expected) => {
    expect(installFolderName(name, folder)).toBe(expected);
  });
});

import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { SERVER_IDENTITY } from "../../src/kernel/server-identity.js";

const file = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url));

it("serverInfo's icons are the shipped icon files, as data: URIs", () => {
  expect(SERVER_IDENTITY.icons.map((icon) => icon.src)).toEqual([
    `data:image/svg+xml;base64,${file("assets/icon.svg").toString("base64")}`,
    `data:image/png;base64,${file("assets/icon-48.png").toString("base64")}`,
  ]);
});

it("serverInfo's websiteUrl is package.json's homepage", () => {
  const pkg = JSON.parse(file("package.json").toString("utf8")) as { homepage: string };
  expect(SERVER_IDENTITY.websiteUrl).toBe(pkg.homepage);
});

import { describe, expect, it } from "vitest";
import { isPrivateHost, redirectRefusal } from "../../src/remote/redirects.js";

describe("redirectRefusal", () => {
  const from = new URL("https://catalog.example/skills.json");
  const to = (url: string, hosts: string[] = []) => redirectRefusal(from, new URL(url), hosts);

  it("allows the same origin only, unless a host is named", () => {
    expect(to("https://catalog.example/v2/skills.json")).toBeUndefined();
    expect(to("https://catalog.example:8443/skills.json")).toMatch(/another origin/);
    expect(to("https://cdn.example/skills.json")).toMatch(/another origin/);
    expect(to("https://cdn.example/skills.json", ["cdn.example"])).toBeUndefined();
    expect(to("https://cdn.example:8443/skills.json", ["cdn.example:8443"])).toBeUndefined();
  });

  it("never steps down from https or out of http(s)", () => {
    expect(to("http://catalog.example/skills.json")).toBe("which is not https");
    expect(to("file:///etc/passwd")).toBe("which is not an http(s) URL");
  });

  it("refuses private and loopback targets from a public catalog, even when named", () => {
    for (const url of [
      "http://127.0.0.1:6379/",
      "https://10.0.0.5/",
      "https://[::1]/",
      "https://169.254.169.254/latest",
      "https://localhost/",
      "https://[::ffff:127.0.0.1]/",
      "https://2130706433/",
    ]) {
      const target = new URL(url);
      expect(redirectRefusal(from, target, [target.host, target.hostname]), url).toMatch(
        /private or loopback|not https/,
      );
    }
    // A catalog on loopback may redirect to loopback hosts it names.
    expect(
      redirectRefusal(new URL("http://127.0.0.1:1/c.json"), new URL("http://127.0.0.1:2/c.json"), ["127.0.0.1:2"]),
    ).toBeUndefined();
  });
});

describe("isPrivateHost", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["100.64.0.1", true],
    ["169.254.169.254", true],
    ["0.0.0.0", true],
    ["8.8.8.8", false],
    ["[::1]", true],
    ["[fd00::1]", true],
    ["[fe80::1]", true],
    ["[2001:db8::1]", false],
    ["[::ffff:7f00:1]", true],
    ["[::ffff:808:808]", false],
    ["localhost", true],
    ["a.localhost", true],
    ["example.com", false],
  ])("%s: %s", (host, expected) => {
    expect(isPrivateHost(host)).toBe(expected);
  });
});

import { describe, expect, it } from "vitest";
import { locate, postedFromHere, rootFor } from "../../../../src/plugins/routes/catalog-page/location.js";

describe("where a page request arrived", () => {
  it("finds the mount point and the scheme", () => {
    expect(locate(new Request("http://127.0.0.1:3000/skill/a/"), "/skill/a/", false)).toEqual({
      origin: "http://127.0.0.1:3000",
      mountPath: "/",
      secure: false,
    });
    expect(locate(new Request("https://skills.example.com/skills/sign-in"), "/sign-in", false)).toEqual({
      origin: "https://skills.example.com",
      mountPath: "/skills/",
      secure: true,
    });
    expect(locate(new Request("http://x/skills"), "/", false).mountPath).toBe("/skills/");
  });

  it("believes X-Forwarded-Proto only when told to", () => {
    const behindProxy = new Request("http://skills.example.com/", { headers: { "x-forwarded-proto": "https, http" } });
    expect(locate(behindProxy, "/", false).secure).toBe(false);
    expect(locate(behindProxy, "/", true)).toMatchObject({ origin: "https://skills.example.com", secure: true });
    // A trusted proxy that says http means http, even on a request that came in over TLS.
    expect(locate(new Request("https://x/", { headers: { "x-forwarded-proto": "http" } }), "/", true).secure).toBe(
      false,
    );
  });

  it("finds the way back to the list page", () => {
    expect(rootFor("/")).toBe("./");
    expect(rootFor("/sign-in")).toBe("./");
    expect(rootFor("/sign-in/callback")).toBe("../");
    expect(rootFor("/skill/a/")).toBe("../../");
    expect(rootFor("/skill/a/references/x.md")).toBe("../../../");
  });

  it("takes a form post from the page itself, and from clients that are no browser", () => {
    const here = locate(new Request("http://127.0.0.1:3000/sign-in"), "/sign-in", false);
    const post = (headers: Record<string, string>) =>
      new Request("http://127.0.0.1:3000/sign-in", { method: "POST", headers });
    expect(postedFromHere(post({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }), here)).toBe(true);
    expect(postedFromHere(post({}), here)).toBe(true);
    expect(postedFromHere(post({ origin: "http://evil.example", "sec-fetch-site": "cross-site" }), here)).toBe(false);
    expect(postedFromHere(post({ origin: "https://127.0.0.1:3000" }), here)).toBe(false);
    expect(postedFromHere(post({ "sec-fetch-site": "same-site" }), here)).toBe(false);
  });
});

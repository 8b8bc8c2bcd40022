import { describe, expect, it } from "vitest";
import {
  CookieSealer,
  readCookie,
  sessionContent,
  setCookie,
  signInContent,
} from "../../../../src/plugins/routes/catalog-page/session.js";

const SECRET = "a session secret of thirty-two characters or more";
const at = (iso: string) => () => new Date(iso);

describe("the page's sealed cookies", () => {
  it("opens what it sealed, for the use it was sealed for", async () => {
    const sealer = new CookieSealer(SECRET);
    const sealed = await sealer.seal("session", { mode: "oauth", token: "eyJ.token" }, sealer.nowSec() + 60);
    expect(sealed).not.toContain("eyJ.token");
    expect(sessionContent(await sealer.unseal("session", sealed))).toEqual({ mode: "oauth", token: "eyJ.token" });
    // A replica with the same secret opens it too.
    expect(sessionContent(await new CookieSealer(SECRET).unseal("session", sealed))).toEqual({
      mode: "oauth",
      token: "eyJ.token",
    });
  });

  it("refuses a cookie changed in any part, sealed by another key, or for another use", async () => {
    const sealer = new CookieSealer(SECRET);
    const sealed = await sealer.seal(
      "session",
      { mode: "token", token: "the static token value" },
      sealer.nowSec() + 60,
    );
    const parts = sealed.split(".");
    for (const [index, part] of parts.entries()) {
      if (part === "") continue;
      const flipped = `${part.slice(0, -2)}${part.at(-2) === "A" ? "B" : "A"}${part.at(-1)}`;
      const tampered = parts.map((p, i) => (i === index ? flipped : p)).join(".");
      expect(await sealer.unseal("session", tampered), `part ${index}`).toBeUndefined();
    }
    expect(
      await new CookieSealer("another secret of thirty-two characters, or more").unseal("session", sealed),
    ).toBeUndefined();
    // Without a configured secret each process has a key of its own.
    expect(
      await new CookieSealer(undefined).unseal(
        "session",
        await new CookieSealer(undefined).seal("session", { token: "x" }, sealer.nowSec() + 60),
      ),
    ).toBeUndefined();
    expect(await sealer.unseal("sign-in", sealed)).toBeUndefined();
    expect(await sealer.unseal("session", "not.a.sealed.cookie.at-all")).toBeUndefined();
    expect(await sealer.unseal("session", "")).toBeUndefined();
  });

  it("refuses a cookie past its expiry, by the clock it is given", async () => {
    const sealer = new CookieSealer(SECRET, at("2026-01-01T00:00:00Z"));
    const sealed = await sealer.seal("session", { mode: "token", token: "t" }, sealer.nowSec() + 600);
    expect(await new CookieSealer(SECRET, at("2026-01-01T00:09:59Z")).unseal("session", sealed)).toBeDefined();
    expect(await new CookieSealer(SECRET, at("2026-01-01T00:10:01Z")).unseal("session", sealed)).toBeUndefined();
  });

  it("reads only well-formed content", () => {
    expect(sessionContent({ mode: "admin", token: "t" })).toBeUndefined();
    expect(sessionContent({ mode: "oauth" })).toBeUndefined();
    expect(signInContent({ state: "s", verifier: "v" })).toBeUndefined();
    expect(signInContent({ state: "s", verifier: "v", redirectUri: "http://x/cb" })).toEqual({
      state: "s",
      verifier: "v",
      redirectUri: "http://x/cb",
    });
  });

  it("makes form tags only its key can make, bound to their subject", () => {
    const sealer = new CookieSealer(SECRET);
    const tag = sealer.tag("sign out", "session-a");
    expect(sealer.tagMatches("sign out", "session-a", tag)).toBe(true);
    expect(sealer.tagMatches("sign out", "session-b", tag)).toBe(false);
    expect(sealer.tagMatches("token form", "session-a", tag)).toBe(false);
    expect(
      new CookieSealer("another secret of thirty-two characters, or more").tagMatches("sign out", "session-a", tag),
    ).toBe(false);
    expect(sealer.tagMatches("sign out", "session-a", "")).toBe(false);
  });
});

describe("cookie headers", () => {
  it("are HttpOnly and SameSite=Lax, Secure over HTTPS alone, scoped to the page's mount", () => {
    expect(setCookie("skills_session", "v", { path: "/", secure: false }, 3600)).toBe(
      "skills_session=v; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax",
    );
    expect(setCookie("skills_session", "v", { path: "/skills/", secure: true }, 60)).toBe(
      "skills_session=v; Path=/skills/; Max-Age=60; HttpOnly; SameSite=Lax; Secure",
    );
    expect(setCookie("skills_session", "", { path: "/", secure: true }, -5)).toContain("Max-Age=0");
  });

  it("reads one cookie by exact name", () => {
    const request = new Request("http://x/", {
      headers: { cookie: "a=1; skills_session_x=2;skills_session=v.w.x ; b=" },
    });
    expect(readCookie(request, "skills_session")).toBe("v.w.x");
    expect(readCookie(request, "b")).toBe("");
    expect(readCookie(request, "c")).toBeUndefined();
    expect(readCookie(new Request("http://x/"), "a")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { MAX_QUERY_CHARS, maskSecrets, missText } from "../../../src/skills/usage/query-text.js";

describe("a miss's text", () => {
  it("is one miss whatever the case, spacing and compatibility forms", () => {
    expect(missText("  Extract   TABLES\tfrom PDF ")).toBe("extract tables from pdf");
    expect(missText("ＰＤＦ tables")).toBe("pdf tables");
  });

  it("keeps no control, format or line-break character", () => {
    expect(missText("a\u0000b\u200bc\u2028d\u202ee")).toBe("a b c d e");
  });

  it("is cut to 200 characters, never half a character", () => {
    expect(missText("x".repeat(500))).toHaveLength(MAX_QUERY_CHARS);
    const emoji = `${"a".repeat(MAX_QUERY_CHARS - 1)}😀`;
    expect(missText(emoji)).toBe("a".repeat(MAX_QUERY_CHARS - 1));
  });

  it("is empty when nothing is left", () => {
    expect(missText(" \n\t ")).toBe("");
  });

  it.each([
    ["write to ada.lovelace@example.co.uk about it", "write to [email] about it"],
    ["use ghp_abcdefghijklmnopqrstuvwxyz0123 here", "use [token] here"],
    ["github_pat_11ABCDEFG0123456789_abcdefghijk", "[token]"],
    ["xoxb-1234567890-abcdefghij", "[token]"],
    ["sk-proj-abcdefghijklmnop1234 model", "[token] model"],
    ["AKIAABCDEFGHIJKLMNOP", "[token]"],
    ["Authorization: Bearer abcdefgh12345678", "Authorization: Bearer [token]"],
    ["api_key=s3cr3tvalue please", "api_key=[secret] please"],
    ['password: "hunter 2" deploy', "password: [secret] deploy"],
    ["https://user:pw@host.example/x", "https://[secret]@host.example/x"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "[token]"],
    ["digest 0123456789abcdef0123456789abcdef01 check", "digest [secret] check"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "[key]"],
  ])("masks %j", (given, masked) => {
    expect(maskSecrets(given)).toBe(masked);
  });

  it("leaves ordinary words, paths and versions alone", () => {
    for (const text of ["convert docx to pdf", "node 20.19 upgrade", "src/plugins/core", "token bucket rate limiter"])
      expect(maskSecrets(text)).toBe(text);
  });

  it("masks before cutting, so a secret at the cut leaves no part of it", () => {
    const text = `${"a ".repeat(95)}ghp_abcdefghijklmnopqrstuvwxyz0123`;
    expect(missText(text)).not.toMatch(/ghp_/);
  });
});

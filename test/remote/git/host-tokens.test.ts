import { describe, expect, it } from "vitest";
import { parseTokenEnv, tokenCredentials } from "../../../src/remote/git/host-tokens.js";

describe("tokenCredentials", () => {
  const env = { GITHUB_TOKEN: "gh-1", GH_TOKEN: "gh-2", CORP: "corp-1" };

  it("gives GITHUB_TOKEN (else GH_TOKEN) to https://github.com alone", () => {
    expect(tokenCredentials("https://github.com/acme/skills.git", {}, env)).toEqual({
      origin: "https://github.com",
      username: "x-access-token",
      password: "gh-1",
    });
    expect(tokenCredentials("https://github.com/acme/skills", {}, { GH_TOKEN: "gh-2" })?.password).toBe("gh-2");
    expect(tokenCredentials("http://github.com/acme/skills", {}, env)).toBeUndefined();
    expect(tokenCredentials("https://github.com.evil.example/acme/skills", {}, env)).toBeUndefined();
    expect(tokenCredentials("https://gitlab.com/acme/skills", {}, env)).toBeUndefined();
    expect(tokenCredentials("git@github.com:acme/skills.git", {}, env)).toBeUndefined();
  });

  it("gives a named host its variable, with the user name given, scoped to host and port", () => {
    const tokens = parseTokenEnv(["git.corp.example=CORP", "deploy@git.corp.example:8443=CORP"]);
    expect(tokenCredentials("https://git.corp.example/team/skills.git", tokens, env)).toEqual({
      origin: "https://git.corp.example",
      username: "x-access-token",
      password: "corp-1",
    });
    expect(tokenCredentials("https://git.corp.example:8443/x.git", tokens, env)).toMatchObject({
      origin: "https://git.corp.example:8443",
      username: "deploy",
    });
    expect(tokenCredentials("https://other.example/x.git", tokens, env)).toBeUndefined();
    // A host named for a variable that is empty gets nothing, not GitHub's token.
    expect(tokenCredentials("https://github.com/a/b", parseTokenEnv(["github.com=UNSET"]), env)).toBeUndefined();
  });

  it("refuses entries that name no host or no variable", () => {
    expect(() => parseTokenEnv(["CORP"])).toThrow('"CORP" is not HOST=VARIABLE');
    expect(() => parseTokenEnv(["https://x.example=CORP"])).toThrow("is not a host");
    expect(() => parseTokenEnv(["x.example=$CORP"])).toThrow("is not an environment variable name");
  });
});

// Re-runs the attack cases of issues 24, 34 and 47 that need no network beyond loopback against the
// built bundle (dist/cli.js): each case sets up a hostile folder, repository, cache or server, runs
// the CLI as a user would, and checks that the attack is refused. Prints one line per case; exits
// 1 if any attack got through, 2 if a case could not run as meant (that is no hole: the case is
// broken). Needs git. Usage: npm run build && node scripts/attack.mjs
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(CLI)) {
  process.stderr.write(`${CLI} is missing: run npm run build first\n`);
  process.exit(2);
}
const base = await mkdtemp(join(tmpdir(), "skills-kernel-attack-"));
const skill = (name) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n# ${name}\n`;

/** A case that could not run the way it means to: reported apart from the attacks that got through. */
class BrokenCase extends Error {}

/** The run of a step the attack needs to succeed (an install to look into): anything else breaks the case. */
function ran(run, what) {
  if (run.code !== 0) throw new BrokenCase(`${what} exited ${run.code}: ${run.stderr.trim().split("\n").at(-1)}`);
  return run;
}

/** Every file under `dir` (relative paths), for checking what an install wrote. */
async function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(dir.length + 1));
}

/** Runs the CLI to completion: { code, stdout, stderr }. */
function cli(args, { cwd = base, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, XDG_CACHE_HOME: join(base, "cache"), HOME: base, SKILLS_KERNEL_TRUST_CONFIG: "", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

/** A loopback HTTP server answering `routes` (path -> { status, headers, body }); records every request. */
async function server(routes) {
  const requests = [];
  const http = createServer((req, res) => {
    requests.push({ path: req.url, headers: req.headers });
    const route = routes[req.url];
    if (!route) return void res.writeHead(404).end();
    res.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body ?? "");
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${http.address().port}`;
  return { url, requests, close: () => new Promise((resolve) => (http.closeAllConnections(), http.close(resolve))) };
}

function git(cwd, ...args) {
  return execFileSync("git", ["-c", "user.name=a", "-c", "user.email=a@b", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  });
}

/** A bare repository holding `files` (and `links`: path -> target), committed once; its file:// URL. */
async function repository(name, files, links = {}) {
  const work = join(base, `${name}-work`);
  const bare = join(base, `${name}.git`);
  await mkdir(work, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(work, path, ".."), { recursive: true });
    await writeFile(join(work, path), content);
  }
  for (const [path, target] of Object.entries(links)) await symlink(target, join(work, path));
  git(base, "init", "-q", "--bare", bare);
  git(work, "init", "-q");
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "x");
  git(work, "push", "-q", bare, "HEAD:refs/heads/main");
  git(bare, "symbolic-ref", "HEAD", "refs/heads/main");
  return pathToFileURL(bare).href;
}

async function project(name, files) {
  const dir = join(base, name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, ".."), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

/** A static bearer token as long as `serve --auth-token` asks for. */
const TOKEN = "attack-token-0123456789";

/** `skills-kernel serve --transport http --port 0 ...args`: its origin once listening, and a stop. */
async function serveHttp(args) {
  const child = spawn(process.execPath, [CLI, "serve", "--transport", "http", "--port", "0", ...args], {
    env: { ...process.env, XDG_CACHE_HOME: join(base, "cache"), HOME: base, SKILLS_KERNEL_TRUST_CONFIG: "" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const origin = await new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
      const match = /listening on (http:\/\/[^/\s]+)/.exec(err);
      if (match) resolve(match[1]);
    });
    child.on("exit", () => reject(new BrokenCase(`the server exited: ${err.trim().split("\n").at(-1)}`)));
  });
  return { origin, stop: () => child.kill() };
}

/** One JSON-RPC request over Streamable HTTP: the message, whether answered as JSON or as an SSE event. */
async function rpc(origin, token, method, params, session) {
  const response = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session && { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  const json = text.trimStart().startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
  if (!response.ok || !json) throw new BrokenCase(`${method} answered ${response.status}: ${text.slice(0, 200)}`);
  return { message: JSON.parse(json), session: response.headers.get("mcp-session-id") ?? undefined };
}

const cases = {
  async "a found config sends no secret to a ranker-hybrid URL"() {
    const sink = await server({});
    try {
      const config = `plugins:\n  - [fs, { roots: [./skills] }]\n  - search-skills\n  - [ranker-hybrid, { url: "${sink.url}/v1", model: x, apiKeyEnv: ATTACK_SECRET }]\n`;
      const dir = await project("hybrid", {
        "package.json": "{}",
        ".skills-kernelrc.yaml": config,
        "skills/a/SKILL.md": skill("a"),
      });
      const run = await cli(["search", "a"], { cwd: dir, env: { ATTACK_SECRET: "secret" } });
      return run.code === 2 && sink.requests.length === 0 && /option apiKeyEnv/.test(run.stderr);
    } finally {
      await sink.close();
    }
  },

  async "a found config opens no HTTP listener"() {
    const dir = await project("listener", {
      "package.json": "{}",
      ".skills-kernelrc.yaml":
        "transport: http\nplugins: [list-skills, [http, { port: 0, allowedHosts: [evil.example] }]]\n",
    });
    const run = await cli([], { cwd: dir });
    return run.code === 2 && /sets transport "http"/.test(run.stderr);
  },

  async "a link into .git is neither served nor installed"() {
    const url = await repository(
      "linked",
      { "SKILL.md": skill("rooted"), "ok.md": "ok\n" },
      { "notes.txt": ".git/config" },
    );
    const read = ran(await cli(["read", "rooted", "--json", "--git", url]), "read");
    const dir = await project("linked-install", { ".git/HEAD": "" });
    ran(await cli(["add", url, "--agent", "claude-code", "--copy"], { cwd: dir }), "add");
    const installed = await readdir(join(dir, ".claude", "skills", "rooted"));
    return !read.stdout.includes("notes.txt") && installed.includes("ok.md") && !installed.includes("notes.txt");
  },

  async "a catalog redirect to another port is not followed, nor its key sent"() {
    const other = await server({ "/c.json": { body: JSON.stringify({ version: "1", skills: [] }) } });
    const catalog = await server({ "/c.json": { status: 302, headers: { location: `${other.url}/c.json` } } });
    try {
      const config = join(base, "redirect.json");
      await writeFile(
        config,
        JSON.stringify({
          plugins: [
            [
              "http-catalog",
              { catalogs: [{ url: `${catalog.url}/c.json`, headers: { "x-api-key": "k" } }], retries: 0 },
            ],
            "list-skills",
          ],
        }),
      );
      const run = await cli(["list", "--config", config]);
      return other.requests.length === 0 && /another origin/.test(run.stderr);
    } finally {
      await Promise.all([other.close(), catalog.close()]);
    }
  },

  async "a catalog entry named ../evilname is not listed"() {
    const entries = [{ name: "../evilname", description: "x", path: "e", files: ["SKILL.md"] }];
    const catalog = await server({
      "/c.json": { body: JSON.stringify({ version: "1", skills: entries }) },
      "/skills/e/SKILL.md": { body: skill("e") },
    });
    try {
      const run = await cli(["list", "--catalog", `${catalog.url}/c.json`]);
      return !run.stdout.includes("evilname");
    } finally {
      await catalog.close();
    }
  },

  async "a poisoned cache does not point git at a local folder"() {
    const url = await repository("poisoned", { "skills/real/SKILL.md": skill("real") });
    await project("planted", { "skills/planted/SKILL.md": skill("planted") });
    await cli(["list", "--git", url]);
    const dir = join(base, "cache", "skills-kernel", "documents");
    for (const file of await readdir(dir)) {
      const entry = JSON.parse(await readFile(join(dir, file), "utf8"));
      if (!String(entry.key).startsWith("ref:")) continue;
      entry.value.commit = `${"../".repeat(40)}${join(base, "planted").slice(1)}`;
      await writeFile(join(dir, file), JSON.stringify(entry));
    }
    const run = await cli(["list", "--git", url]);
    return run.stdout === "real\n";
  },

  async "a repository that expands past maxTotalBytes is refused"() {
    const url = await repository("zeros", {
      "skills/z/SKILL.md": skill("z"),
      "skills/z/zeros.bin": Buffer.alloc(32 * 1024 * 1024).toString(),
    });
    const config = join(base, "capped.json");
    await writeFile(
      config,
      JSON.stringify({ plugins: [["git", { repositories: [url], maxTotalBytes: 2 * 1024 * 1024 }], "list-skills"] }),
    );
    const run = await cli(["list", "--config", config]);
    return run.stdout.trim() === "" && /larger than maxTotalBytes/.test(run.stderr);
  },

  async "a found YAML config with an unknown tag is refused in one line"() {
    const dir = await project("yaml-tag", {
      "package.json": "{}",
      ".skills-kernelrc.yaml": "plugins: [list-skills]\nlogLevel: !evil warn\n",
    });
    const run = await cli(["list"], { cwd: dir });
    return run.code === 2 && run.stderr.trim().split("\n").length === 1;
  },

  async "a git repository's links out of its checkout are neither served nor installed"() {
    const secret = "PRIVATE-canary";
    const notes = await project("private-notes", {
      "SKILL.md": skill("private-notes").replace("# private-notes", secret),
    });
    const url = await repository(
      "climbing",
      { "skills/public/SKILL.md": skill("public") },
      { "skills/steal": `${"../".repeat(40)}${notes.slice(1)}`, "skills/steal-abs": notes },
    );
    const listed = ran(await cli(["list", "--git", `${url}:skills`]), "list");
    const read = await cli(["read", "private-notes", "--git", `${url}:skills`]);
    const dir = await project("climbing-install", { ".git/HEAD": "" });
    ran(await cli(["add", `${url}:skills`, "--agent", "claude-code", "--copy"], { cwd: dir }), "add");
    const written = await filesUnder(join(dir, ".claude"));
    const copied = await Promise.all(written.map((file) => readFile(join(dir, ".claude", file), "utf8")));
    return (
      listed.stdout === "public\n" &&
      read.code !== 0 &&
      !read.stdout.includes(secret) &&
      !copied.some((text) => text.includes(secret))
    );
  },

  async "a git repository linking to a team's folder shows an outsider nothing"() {
    const team = await project("team", { "payroll/SKILL.md": skill("payroll") });
    const url = await repository(
      "team-link",
      { "skills/public/SKILL.md": skill("public") },
      { "skills/payroll": join(team, "payroll") },
    );
    const config = join(base, "team.json");
    const teamRoot = { path: team, source: "team", visibleTo: { claims: { groups: ["payroll"] } } };
    const outsider = ["stdio", { identity: { subject: "eve", claims: { groups: ["guests"] } } }];
    await writeFile(
      config,
      JSON.stringify({
        plugins: [
          ["fs", { roots: [teamRoot] }],
          ["git", { repositories: [`${url}:skills`] }],
          "list-skills",
          "read-skill",
          outsider,
        ],
      }),
    );
    const listed = ran(await cli(["list", "--config", config]), "list");
    const read = await cli(["read", "payroll", "--config", config]);
    return listed.stdout === "public\n" && read.code !== 0;
  },

  async "add, remove and update --force write and delete nothing through linked agent folders"() {
    const url = await repository("agent-links", { "skills/deploy/SKILL.md": skill("deploy") });
    const elsewhere = await project("elsewhere", { "Documents/taxes.txt": "mine\n" });
    // .claude/skills -> elsewhere, and a lock entry named after a folder there.
    const dir = await project("home-link", { ".git/HEAD": "" });
    ran(await cli(["add", `${url}:skills@deploy`, "--agent", "claude-code", "--copy"], { cwd: dir }), "add");
    const lock = JSON.parse(await readFile(join(dir, "skills-lock.json"), "utf8"));
    lock.skills.Documents = lock.skills.deploy;
    await writeFile(join(dir, "skills-lock.json"), JSON.stringify(lock));
    await rm(join(dir, ".claude", "skills"), { recursive: true });
    await symlink(elsewhere, join(dir, ".claude", "skills"));
    await cli(["remove", "Documents"], { cwd: dir });
    await cli(["update", "Documents", "--force"], { cwd: dir });
    const kept =
      existsSync(join(elsewhere, "Documents", "taxes.txt")) && (await readdir(elsewhere)).join() === "Documents";
    // A linked .claude, .agents or .cursor/skills receives nothing.
    const layouts = [
      [".claude", ["--agent", "claude-code"]],
      [".agents", ["--agent", "claude-code"]],
      [".cursor/skills", ["--agent", "cursor", "--copy"]],
    ];
    let untouched = true;
    for (const [link, args] of layouts) {
      const target = await project(`target-${link.replace(/\W/g, "")}`, {});
      await mkdir(target, { recursive: true });
      const linked = await project(`linked-${link.replace(/\W/g, "")}`, { ".git/HEAD": "" });
      await mkdir(join(linked, link, ".."), { recursive: true });
      await symlink(target, join(linked, link));
      await cli(["add", `${url}:skills@deploy`, ...args], { cwd: linked });
      untouched &&= (await readdir(target)).length === 0;
    }
    return kept && untouched;
  },

  async "fetch_skill_files of five 1 MiB files stays under 10 MiB on stdio"() {
    const dir = await project("large", { "skills/big/SKILL.md": skill("big") });
    for (let i = 1; i <= 5; i++)
      await writeFile(join(dir, "skills/big", `p${i}.txt`), randomBytes(512 * 1024).toString("hex"));
    const request = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "fetch_skill_files",
        arguments: { skill_name: "big", file_paths: [1, 2, 3, 4, 5].map((i) => `p${i}.txt`) },
      },
    };
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "attack", version: "0" } },
    };
    const child = spawn(process.execPath, [CLI, "--skills-dir", "skills"], {
      cwd: dir,
      stdio: ["pipe", "pipe", "ignore"],
    });
    child.stdin.write(
      `${JSON.stringify(init)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify(request)}\n`,
    );
    let out = "";
    const longest = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(Infinity), 30_000);
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const lines = out.split("\n");
        if (lines.some((line) => line.includes('"id":2'))) {
          clearTimeout(timer);
          resolve(Math.max(...lines.map((line) => Buffer.byteLength(line))));
        }
      });
    });
    child.kill();
    return longest < 10 * 1024 * 1024;
  },
};

/** A signed-in HTTP server, its issuer a loopback stand-in with one RSA key: does any forged JWT get in? */
cases["a signed-in server refuses alg none, HMAC with the public key, and a forged signature"] = async () => {
  const { generateKeyPairSync, createHmac, createSign } = await import("node:crypto");
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const routes = {};
  const idp = await server(routes);
  routes["/.well-known/openid-configuration"] = {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ issuer: idp.url, jwks_uri: `${idp.url}/jwks` }),
  };
  routes["/jwks"] = {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" }] }),
  };
  const b64 = (value) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
  const claims = b64({ iss: idp.url, aud: "skills", sub: "mallory", exp: Math.floor(Date.now() / 1000) + 600 });
  const signed = (alg, sign) =>
    `${b64({ alg, kid: "k1", typ: "JWT" })}.${claims}.${sign(`${b64({ alg, kid: "k1", typ: "JWT" })}.${claims}`)}`;
  const rs256 = signed("RS256", (input) =>
    createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url"),
  );
  const pem = publicKey.export({ format: "pem", type: "spki" });
  const forgeries = [
    `${b64({ alg: "none", typ: "JWT" })}.${claims}.`,
    signed("HS256", (input) => createHmac("sha256", pem).update(input).digest("base64url")),
    `${rs256.split(".").slice(0, 2).join(".").replace(/.$/, "A")}.${rs256.split(".")[2]}`,
  ];
  const child = spawn(
    process.execPath,
    [
      CLI,
      "serve",
      "--transport",
      "http",
      "--port",
      "0",
      "--skills-dir",
      base,
      "--oauth-issuer",
      idp.url,
      "--oauth-audience",
      "skills",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  try {
    const origin = await new Promise((resolve, reject) => {
      let err = "";
      child.stderr.on("data", (chunk) => {
        err += chunk;
        const match = /listening on (http:\/\/[^/\s]+)/.exec(err);
        if (match) resolve(match[1]);
      });
      child.on("exit", () => reject(new Error(`the server exited: ${err}`)));
    });
    const status = async (token) =>
      (
        await fetch(`${origin}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: "{}",
        })
      ).status;
    const refused = await Promise.all(forgeries.map(status));
    // The genuine token gets past sign-in (what it then asks is the MCP layer's to answer).
    return refused.every((code) => code === 401) && (await status(rs256)) !== 401;
  } finally {
    child.kill();
    await idp.close();
  }
};

/** Opens a session on `server` (with TOKEN) and names the tools it lists; none is a broken case. */
async function toolsOver(server) {
  const init = await rpc(server.origin, TOKEN, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "attack", version: "1" },
  });
  const listed = await rpc(server.origin, TOKEN, "tools/list", {}, init.session);
  const names = (listed.message.result?.tools ?? []).map((tool) => tool.name);
  if (names.length === 0)
    throw new BrokenCase(`tools/list answered no tools: ${JSON.stringify(listed.message).slice(0, 200)}`);
  return { session: init.session, names };
}

cases["write tools are not served over HTTP by the default config (issue 34, item 3)"] = async () => {
  const server = await serveHttp(["--skills-dir", base, "--auth-token", TOKEN]);
  try {
    const { names } = await toolsOver(server);
    return !names.includes("add_skill") && !names.includes("install_skill");
  } finally {
    server.stop();
  }
};

cases["the server's lock files are not read for an HTTP caller (issue 47, item 3)"] = async () => {
  const server = await serveHttp(["--skills-dir", base, "--auth-token", TOKEN]);
  try {
    const { session, names } = await toolsOver(server);
    const operatorTools = ["list_installed_skills", "check_outdated_skills"];
    const called = await Promise.all(
      operatorTools.map((name) =>
        rpc(server.origin, TOKEN, "tools/call", { name, arguments: { global: true } }, session),
      ),
    );
    const answered = called.some(({ message }) => message.result !== undefined && message.result.isError !== true);
    return !operatorTools.some((name) => names.includes(name)) && !answered;
  } finally {
    server.stop();
  }
};

cases["absolute-form and * request targets get no 5xx (issue 47, item 7)"] = async () => {
  const server = await serveHttp(["--skills-dir", base, "--auth-token", TOKEN]);
  const { host, hostname, port } = new URL(server.origin);
  // fetch sends only a path as the target, so the request line is written on a socket.
  const status = (line) =>
    new Promise((resolve, reject) => {
      const socket = new Socket();
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk));
      socket.on("error", reject);
      socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
      socket.connect(Number(port), hostname, () =>
        socket.write(`${line}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
      );
    });
  try {
    const health = await status(`GET http://${host}/healthz HTTP/1.1`);
    const others = await Promise.all(
      ["GET *", "OPTIONS *", `POST http://${host}/mcp`, "GET http://evil.example/mcp"].map((l) =>
        status(`${l} HTTP/1.1`),
      ),
    );
    return health === 200 && others[0] === 400 && others[1] === 200 && others[2] < 500 && others[3] === 403;
  } finally {
    server.stop();
  }
};

cases["TRACE is refused with 405 on every path, never a 5xx (issue 34, item 10)"] = async () => {
  const server = await serveHttp(["--skills-dir", base, "--auth-token", TOKEN]);
  // fetch refuses to send TRACE, so node:http asks.
  const trace = (path) =>
    new Promise((resolve, reject) => {
      const asked = request(`${server.origin}${path}`, { method: "TRACE" }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      asked.on("error", reject);
      asked.end();
    });
  try {
    const statuses = await Promise.all(["/mcp", "/healthz", "/", "/nowhere"].map(trace));
    return statuses.every((status) => status === 405);
  } finally {
    server.stop();
  }
};

/** A loopback OAuth issuer with one RSA key: `token(claims)` signs an access token for audience "skills". */
async function loopbackIssuer() {
  const { generateKeyPairSync, createSign } = await import("node:crypto");
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const routes = {};
  const idp = await server(routes);
  const json = (body) => ({ headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  routes["/.well-known/openid-configuration"] = json({ issuer: idp.url, jwks_uri: `${idp.url}/jwks` });
  routes["/jwks"] = json({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" }] });
  const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const token = (claims) => {
    const head = `${part({ alg: "RS256", kid: "k1", typ: "JWT" })}.${part({ iss: idp.url, aud: "skills", exp: Math.floor(Date.now() / 1000) + 600, ...claims })}`;
    return `${head}.${createSign("RSA-SHA256").update(head).sign(privateKey).toString("base64url")}`;
  };
  return { url: idp.url, token, close: idp.close };
}

/**
 * A third-party plugin, importing the built package only: tools that rank with the ranker it
 * consumes, walk what is reachable from their catalog (casts included), and reload a source the
 * caller may not see. `consumes` is given as source text, for the refusal cases.
 */
const attackerPlugin = (
  consumes = "[TOKENS.Ranker]",
) => `import { definePlugin, TOKENS } from ${JSON.stringify(pathToFileURL(join(CLI, "../index.js")).href)};
const text = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
function reachable(root) {
  const seen = new Set(), queue = [root, ...Object.values(Object.getOwnPropertyDescriptors(Object.getPrototypeOf(root))).flatMap((d) => (d.get ? [d.get.call(root)] : []))];
  while (queue.length > 0 && seen.size < 2000) {
    const next = queue.shift();
    if (seen.has(next) || typeof next !== "object" || next === null) continue;
    seen.add(next);
    for (const key of Reflect.ownKeys(next)) queue.push(Object.getOwnPropertyDescriptor(next, key).value);
  }
  return [...seen].flatMap((value) => (typeof value.list === "function" && value.list.length === 0 ? value.list() : []));
}
export default definePlugin({
  name: "attacker",
  consumes: ${consumes},
  setup(ctx) {
    ctx.addTool({ name: "rank", description: "r", annotations: { readOnlyHint: true }, async handler() {
      try { return text((await ctx.resolve(TOKENS.Ranker).search("payroll secret", { limit: 50 })).map((r) => r.skill.name)); }
      catch (error) { return text(String(error)); }
    } });
    ctx.addTool({ name: "reach", description: "r", annotations: { readOnlyHint: true }, async handler(_args, { catalog }) {
      await catalog.ready();
      return text([...reachable(catalog), ...(catalog.whole?.list() ?? [])].map((skill) => skill.name));
    } });
    ctx.addTool({ name: "refresh_hidden", description: "r", annotations: { readOnlyHint: true }, async handler(_args, { catalog }) {
      await catalog.refresh("secret");
      return text(catalog.status());
    } });
  },
});
`;

cases["a third-party plugin answering an outsider sees nothing of a hidden source (issue 47, item 4)"] = async () => {
  const dir = await project("third-party", {
    "open/hello/SKILL.md": skill("hello"),
    "secret/payroll/SKILL.md": skill("payroll"),
    "attacker.mjs": attackerPlugin(),
  });
  const idp = await loopbackIssuer();
  const config = join(dir, "plugins.config.json");
  await writeFile(
    config,
    JSON.stringify({
      plugins: [
        ["fs", { roots: ["./open", { path: "./secret", source: "secret", visibleTo: { scopes: ["payroll"] } }] }],
        "search-skills",
        "./attacker.mjs",
      ],
    }),
  );
  const child = spawn(
    process.execPath,
    [
      CLI,
      "serve",
      "--config",
      config,
      "--transport",
      "http",
      "--port",
      "0",
      "--oauth-issuer",
      idp.url,
      "--oauth-audience",
      "skills",
    ],
    {
      cwd: dir,
      env: { ...process.env, XDG_CACHE_HOME: join(base, "cache"), HOME: base },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  try {
    const origin = await new Promise((resolve, reject) => {
      let err = "";
      child.stderr.on("data", (chunk) => {
        err += chunk;
        const match = /listening on (http:\/\/[^/\s]+)/.exec(err);
        if (match) resolve(match[1]);
      });
      child.on("exit", () => reject(new BrokenCase(`the server exited: ${err.trim().split("\n").at(-1)}`)));
    });
    const session = async (token) =>
      (
        await rpc(origin, token, "initialize", {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "attack", version: "1" },
        })
      ).session;
    const call = async (token, id, name, args = {}) =>
      JSON.stringify((await rpc(origin, token, "tools/call", { name, arguments: args }, id)).message);
    const member = idp.token({ sub: "ada", scope: "payroll" });
    const outsider = idp.token({ sub: "mallory" });
    // The member searches first: search-skills then holds an index of every skill.
    if (!(await call(member, await session(member), "search_skills", { query: "payroll" })).includes("payroll"))
      throw new BrokenCase("the member's search did not find the hidden skill");
    const id = await session(outsider);
    const answers = [
      await call(outsider, id, "rank"),
      await call(outsider, id, "reach"),
      await call(outsider, id, "refresh_hidden"),
    ];
    return answers.every(
      (answer) => answer.includes('"result"') && !answer.includes("payroll") && !answer.includes("secret"),
    );
  } finally {
    child.kill();
    await idp.close();
  }
};

cases["a plugin consuming a whole-catalog service without saying so does not boot (issue 47, item 4)"] = async () => {
  const refusals = [];
  for (const token of ["CatalogSource", "SourceVisibility", "WholeCatalog"]) {
    const dir = await project(`plain-${token}`, {
      "skills/hello/SKILL.md": skill("hello"),
      "attacker.mjs": attackerPlugin(`[TOKENS.${token}]`),
      "plugins.config.json": JSON.stringify({ plugins: [["fs", { roots: ["./skills"] }], "./attacker.mjs"] }),
    });
    const run = await cli(["list", "--config", join(dir, "plugins.config.json")], { cwd: dir });
    refusals.push(run.code === 2 && /holds every source's skills, hidden ones too/.test(run.stderr));
  }
  return refusals.every(Boolean);
};

cases["export neither writes nor deletes through a linked agent-skills (issue 47, item 1)"] = async () => {
  const dir = await project("export-linked", { "skills/a/SKILL.md": skill("a"), "victim/keep.txt": "mine\n" });
  await mkdir(join(dir, "site/.well-known"), { recursive: true });
  await symlink(join(dir, "victim"), join(dir, "site/.well-known/agent-skills"));
  const run = await cli(["export", join(dir, "skills"), "--out", join(dir, "site")]);
  return (
    run.code === 1 &&
    /is a symbolic link/.test(run.stderr) &&
    (await filesUnder(join(dir, "victim"))).join() === "keep.txt"
  );
};

cases["export removes no file it did not write (issue 47, item 1)"] = async () => {
  const dir = await project("export-foreign", {
    "skills/a/SKILL.md": skill("a"),
    "site/.well-known/agent-skills/README.md": "mine\n",
  });
  ran(await cli(["export", join(dir, "skills"), "--out", join(dir, "site")]), "export");
  const run = ran(await cli(["export", join(dir, "skills"), "--out", join(dir, "site")]), "export");
  return existsSync(join(dir, "site/.well-known/agent-skills/README.md")) && /left alone 1 file/.test(run.stderr);
};

cases["a FIFO given as an archive is refused, not waited on (issue 47, item 6)"] = async () => {
  if (process.platform === "win32") return true;
  const dir = await project("fifo", { "skills/a/SKILL.md": skill("a") });
  execFileSync("mkfifo", [join(dir, "evil.tar.gz")]);
  const run = await cli(["list", "--skills-archive", join(dir, "evil.tar.gz")]);
  return run.code === 1 && /is not a regular file but a FIFO/.test(run.stderr);
};

cases["a cache secret others may read is not used (issue 47, item 7)"] = async () => {
  if (process.platform === "win32") return true;
  const dir = await project("secret-mode", { "skills/a/SKILL.md": skill("a") });
  const config = join(dir, "config.json");
  await writeFile(config, JSON.stringify({ plugins: [["fs", { roots: ["./skills"] }], "cache-redis", "list-skills"] }));
  const cache = join(dir, "cache");
  await mkdir(join(cache, "skills-kernel"), { recursive: true });
  await writeFile(join(cache, "skills-kernel/redis-secret"), `${"k".repeat(43)}\n`, { mode: 0o644 });
  await chmod(join(cache, "skills-kernel/redis-secret"), 0o644);
  const kept = await cli(["list", "--config", config], { cwd: dir, env: { XDG_CACHE_HOME: cache } });
  const short = await cli(["list", "--config", config], {
    cwd: dir,
    env: { XDG_CACHE_HOME: cache, SKILLS_KERNEL_CACHE_SECRET: "short" },
  });
  return (
    kept.code === 2 &&
    /other users may read it/.test(kept.stderr) &&
    short.code === 2 &&
    /at least 32/.test(short.stderr)
  );
};

cases["a discovery index's artifact on another port gets none of the catalog's headers (issue 47, item 2)"] =
  async () => {
    const bytes = skill("roaming");
    const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
    const other = await server({ "/roaming.md": { body: bytes } });
    const index = {
      $schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json",
      skills: [{ name: "roaming", type: "skill-md", description: "r", url: `${other.url}/roaming.md`, digest }],
    };
    const catalog = await server({ "/.well-known/agent-skills/index.json": { body: JSON.stringify(index) } });
    try {
      const config = join(base, "artifact-headers.json");
      const headers = { authorization: "Bearer K", "x-api-key": "K2" };
      await writeFile(
        config,
        JSON.stringify({
          plugins: [["http-catalog", { catalogs: [{ url: catalog.url, headers }], retries: 0 }], "list-skills"],
        }),
      );
      const run = ran(await cli(["list", "--config", config]), "list");
      if (run.stdout.trim() !== "roaming" || other.requests.length === 0)
        throw new BrokenCase(`the artifact was not fetched: ${run.stderr.trim().split("\n").at(-1)}`);
      return other.requests.every((seen) => !seen.headers.authorization && !seen.headers["x-api-key"]);
    } finally {
      await Promise.all([other.close(), catalog.close()]);
    }
  };

cases["restore makes no folder from a lock name with a bidi override (issue 47, item 7)"] = async () => {
  const dir = await project("bidi-lock", { ".git/HEAD": "" });
  const entry = {
    source: "../x",
    sourceType: "local",
    skillPath: "x/SKILL.md",
    agents: ["claude-code"],
    computedHash: "0".repeat(64),
    files: { "SKILL.md": `sha256:${"0".repeat(64)}` },
  };
  await writeFile(join(dir, "skills-lock.json"), JSON.stringify({ version: 1, skills: { "x\u202egpj.exe": entry } }));
  const run = await cli(["restore"], { cwd: dir });
  return run.code === 1 && /not a plain folder name/.test(run.stderr) && !existsSync(join(dir, ".claude"));
};

cases["add installs no skill over another of the same name (issue 47, item 7)"] = async () => {
  const dir = await project("same-name", { ".git/HEAD": "" });
  for (const owner of ["team", "vendor"]) await project(`same-name/src/${owner}/pdf`, { "SKILL.md": skill("pdf") });
  const run = await cli(["add", join(dir, "src"), "--agent", "claude-code", "--copy"], { cwd: dir });
  return run.code === 1 && /one over the other/.test(run.stderr) && !existsSync(join(dir, ".claude"));
};

cases["add leaves out a 300-character file name instead of failing (issue 47, item 7)"] = async () => {
  const { zipSync } = await import("fflate");
  const dir = await project("long-file", { ".git/HEAD": "" });
  const long = `${"n".repeat(296)}.md`;
  const enc = (text) => new TextEncoder().encode(text);
  await writeFile(join(dir, "long.zip"), zipSync({ "SKILL.md": enc(skill("long")), [long]: enc("x\n") }));
  const run = await cli(["add", join(dir, "long.zip"), "--agent", "claude-code", "--copy", "--verbose"], { cwd: dir });
  return run.code === 0 && /longer than 255 bytes/.test(run.stdout) && !/ENAMETOOLONG/.test(run.stderr);
};

let failed = 0;
let broken = 0;
for (const [name, run] of Object.entries(cases)) {
  let outcome;
  try {
    outcome = (await run()) ? "refused" : "GOT THROUGH";
  } catch (error) {
    outcome = error instanceof BrokenCase ? "CASE BROKEN" : "GOT THROUGH";
    process.stdout.write(`  (${error instanceof Error ? error.message : String(error)})\n`);
  }
  if (outcome === "GOT THROUGH") failed++;
  if (outcome === "CASE BROKEN") broken++;
  process.stdout.write(`${outcome.padEnd(11)}  ${name}\n`);
}
await rm(base, { recursive: true, force: true });
const total = Object.keys(cases).length;
process.stdout.write(
  `${total - failed - broken} of ${total} attacks refused${broken > 0 ? `; ${broken} cases could not run` : ""}\n`,
);
process.exit(failed > 0 ? 1 : broken > 0 ? 2 : 0);

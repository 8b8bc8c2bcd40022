import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.js";
import { absentByRequest } from "./tools.js";

/** Debian's nginx (`.ci/run` installs it when missing; npm has no package that ships it). */
export const NGINX = absentByRequest("nginx")
  ? undefined
  : ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path));

/** A title for tests that need nginx: the skip reason only when it is missing. */
export function needsNginx(title: string): string {
  return NGINX ? title : `${title} (skipped: nginx is not installed; .ci/run installs it)`;
}

export interface Nginx {
  readonly origin: string;
  stop(): Promise<void>;
}

/**
 * Start nginx on loopback in front of `upstreams`, with its own config and files in a temp folder
 * (never the system's). `http` is the body of its http block: the upstream and routing under
 * test; the server block proxies everything there and names the replica that answered in
 * X-Upstream.
 */
export async function startNginx(http: (listen: string) => string): Promise<Nginx> {
  if (!NGINX) throw new Error("nginx is not installed");
  const dir = mkdtempSync(join(tmpdir(), "sk-nginx-"));
  mkdirSync(join(dir, "temp"));
  const port = await freePort();
  const config = `
# One process, in the foreground, as the user running the test.
master_process off;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  ${http(`127.0.0.1:${port}`)}
}
`;
  writeFileSync(join(dir, "nginx.conf"), config);
  const child: ChildProcess = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const up = await fetch(`${origin}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt > 100) throw new Error(`nginx did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The proxy settings MCP needs: HTTP/1.1 keep-alive to the replicas, no buffering of event streams. */
export const PROXY = `
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $host;
    proxy_buffering off;
    proxy_read_timeout 1h;
    add_header X-Upstream $upstream_addr always;`;

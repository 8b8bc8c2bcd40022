import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** A key and a self-signed certificate for 127.0.0.1, and the certificate's file (git's GIT_SSL_CAINFO). */
export interface LoopbackCert {
  readonly key: string;
  readonly cert: string;
  readonly certFile: string;
}

/** Made by openssl in `folder`, valid for a day. */
export async function loopbackCert(folder: string): Promise<LoopbackCert> {
  const keyFile = join(folder, "key.pem");
  const certFile = join(folder, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  return { key: await readFile(keyFile, "utf8"), cert: await readFile(certFile, "utf8"), certFile };
}

/**
 * A real npm registry on 127.0.0.1 for release tests and the bench: Verdaccio 5, storage, config
 * and password file in a temporary folder, no uplinks (a package it does not hold is a 404, so
 * nothing leaves the machine), publishing allowed to one throwaway user the caller creates, and an
 * .npmrc pointing npm at it with that user's token.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServer } from "verdaccio";

export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  /** An .npmrc naming the registry and the publishing user's token: give it to npm as npm_config_userconfig. */
  readonly npmrc: string;
  close(): Promise<void>;
}

/** Starts the registry and creates its publishing user. */
export async function startLocalRegistry(): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), "local-registry-"));
  mkdirSync(join(dir, "storage"));
  const server = (await runServer({
    self_path: dir,
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    uplinks: {},
    packages: { "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" } },
    web: { enable: false },
    max_body_size: "50mb",
    logs: { type: "stdout", format: "pretty", level: "fatal" },
    security: { api: { legacy: true }, web: { sign: { expiresIn: "1h" }, verify: {} } },
    server: { keepAliveTimeout: 1 },
  } as never)) as Server;
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const user = { name: "release-test", password: `pw-${process.pid}-${Date.now()}` };
  const response = await fetch(new URL(`-/user/org.couchdb.user:${user.name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...user, type: "user", roles: [], date: new Date().toISOString() }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!response.ok || !token)
    throw new Error(`the local registry did not create its publishing user (HTTP ${response.status})`);
  const npmrc = join(dir, "npmrc");
  writeFileSync(npmrc, `registry=${url}\n//${new URL(url).host}/:_authToken=${token}\n`);
  return {
    url,
    npmrc,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

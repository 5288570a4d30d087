/**
 * Where the servers started from this project listen, so that they find each other: the sandbox
 * (`npm run sandbox`) records its address, and the docs server (`npm run docs:serve`) hands it to
 * the try-it console, which then calls the sandbox on whatever port it has. One small file per
 * server under node_modules/.cache/media-service/ (the project's own folder, which git ignores),
 * holding the address and the process id: a record whose process is gone, or whose address is not
 * a port of 127.0.0.1, counts as none (the console sends a key to it).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** This repository's record folder; MEDIA_LOCAL_SERVERS_DIR names another (tests keep theirs apart). */
export const LOCAL_SERVERS_DIR =
  process.env.MEDIA_LOCAL_SERVERS_DIR ??
  fileURLToPath(new URL("../node_modules/.cache/media-service/", import.meta.url));

/** The servers that record themselves. */
export type LocalServer = "sandbox";

interface Record {
  url: string;
  pid: number;
}

const LOOPBACK_URL = /^http:\/\/127\.0\.0\.1:\d{1,5}$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Records that `server` listens at `url` (this process); returns what removes the record, if it is still this one's. */
export function recordLocalServer(server: LocalServer, url: string, dir = LOCAL_SERVERS_DIR): () => void {
  const file = join(dir, `${server}.json`);
  mkdirSync(dir, { recursive: true });
  // Written whole, then renamed: a reader never sees half a record.
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify({ url, pid: process.pid } satisfies Record)}\n`);
  renameSync(`${file}.${process.pid}`, file);
  return () => {
    if (localServer(server, dir) === url) rmSync(file, { force: true });
  };
}

/** The address `server` recorded, if its process still runs and the address is on 127.0.0.1; else null. */
export function localServer(server: LocalServer, dir = LOCAL_SERVERS_DIR): string | null {
  try {
    const record = JSON.parse(readFileSync(join(dir, `${server}.json`), "utf8")) as Partial<Record>;
    if (typeof record.url !== "string" || !LOOPBACK_URL.test(record.url) || typeof record.pid !== "number") return null;
    return alive(record.pid) ? record.url : null;
  } catch {
    return null;
  }
}

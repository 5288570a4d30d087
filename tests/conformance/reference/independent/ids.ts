/**
 * Job ids of the independent server: the documented prefix where the specification gives one
 * (`img_`, `mtn_`, `dpt_`), then 20 characters of Crockford base32; areas whose prefix is not shown
 * get prefixes of this server's own. I-G's legacy response carries an integer `job_id`.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Prefixes of this server's own for the areas whose prefix the specification does not show. */
const OWN_PREFIXES: Readonly<Record<string, string>> = {
  videos: "vid-",
  audios: "snd-",
  "3d": "mesh-",
  "video-upscales": "ups-",
};

function base32(length: number): string {
  return [...randomBytes(length)].map((byte) => ALPHABET[byte % 32]).join("");
}

export class JobIds {
  private nextLegacy = 730_000 + Math.floor(Math.random() * 1000);

  constructor(private readonly documented: Readonly<Record<string, string>>) {}

  next(segment: string): string {
    return `${this.documented[segment] ?? OWN_PREFIXES[segment] ?? "job-"}${base32(20)}`;
  }

  legacy(): number {
    this.nextLegacy += 1 + Math.floor(Math.random() * 7);
    return this.nextLegacy;
  }
}

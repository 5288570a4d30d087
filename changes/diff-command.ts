/**
 * `npm run diff -- [OLD [NEW]] [--format markdown|json] [--out FILE] [--ack FILE] [--check]`.
 * Returns the exit status: 0 no unacknowledged breaking change, 1 an unacknowledged breaking
 * change, 2 a usage or input error.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import {
  ACKNOWLEDGEMENTS_FILE,
  BUNDLE_FILE,
  latestRelease,
  PROJECT_ROOT,
  RELEASES_DIR,
  releaseSide,
  shownPath,
} from "./baseline.ts";
import { applyAcknowledgements, readAcknowledgements, type Acknowledgement } from "./acknowledgements.ts";
import { compareDescriptions, type Side } from "./compare.ts";
import { readFlags, UsageError } from "../tools/command.ts";
import { loadSide } from "./load-side.ts";
import { renderJson } from "./render-json.ts";
import { renderMarkdown } from "./render-markdown.ts";

export const USAGE = `usage: npm run diff -- [OLD [NEW]] [--format markdown|json] [--out FILE] [--ack FILE] [--check] [--root DIR]

OLD and NEW are description files (JSON or YAML), git refs (whose committed
generated/openapi.json is read) or REF:path. With no OLD, the latest release in
releases/ (the baseline the release compares with too) is compared with
generated/openapi.json, acknowledged by changes/acknowledged.json; with no NEW, OLD
is compared with generated/openapi.json.

  --format markdown|json  release notes (default) or JSON for CI
  --out FILE              write the report to FILE instead of standard output
  --ack FILE              acknowledgements file naming the accepted breaking changes
  --check                 CI: the default comparison only, no OLD or NEW
  --root DIR              the project whose releases/, generated/ and changes/ the default
                          comparison reads (default: this repository)

exit status: 0 no unacknowledged breaking change; 1 an unacknowledged breaking change
(its ids are listed); 2 a usage or input error`;

export interface CommandIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const FORMATS = ["markdown", "json"] as const;

const COMMAND = {
  name: "diff",
  help: USAGE,
  positionals: ["OLD", "NEW"],
  options: {
    format: { type: "string" },
    out: { type: "string" },
    ack: { type: "string" },
    check: { type: "boolean" },
    root: { type: "string" },
  },
} as const;

/** The default comparison's files in the project `root`. */
function projectFiles(root: string | undefined, io: CommandIo) {
  if (root === undefined)
    return { root: PROJECT_ROOT, releases: RELEASES_DIR, bundle: BUNDLE_FILE, acknowledgements: ACKNOWLEDGEMENTS_FILE };
  const dir = resolve(io.cwd, root);
  if (!existsSync(dir)) throw new UsageError(`--root ${root}: no such folder`);
  return {
    root: dir,
    releases: join(dir, relative(PROJECT_ROOT, RELEASES_DIR)),
    bundle: join(dir, shownPath(BUNDLE_FILE)),
    acknowledgements: join(dir, shownPath(ACKNOWLEDGEMENTS_FILE)),
  };
}
type ProjectFiles = ReturnType<typeof projectFiles>;

function sides(positionals: string[], io: CommandIo, project: ProjectFiles): [Side, Side] {
  const bundle = (): Side => loadSide(relative(project.root, project.bundle), "NEW", project.root);
  const [old, now] = positionals;
  if (old === undefined) return [releaseSide(latestRelease(project.releases)), bundle()];
  return [loadSide(old, "OLD", io.cwd), now === undefined ? bundle() : loadSide(now, "NEW", io.cwd)];
}

function acknowledgements(
  file: string | undefined,
  defaultComparison: boolean,
  io: CommandIo,
  project: ProjectFiles,
): { list: Acknowledgement[]; label: string } {
  if (file !== undefined) {
    const path = resolve(io.cwd, file);
    if (!existsSync(path)) throw new UsageError(`--ack ${file}: no such file`);
    return { list: readAcknowledgements(path, file), label: file };
  }
  // The repository's file acknowledges changes since the latest release, so only that comparison reads it.
  const label = shownPath(ACKNOWLEDGEMENTS_FILE);
  if (!defaultComparison)
    return {
      list: [],
      label: `a file passed with --ack FILE (${label} acknowledges only the default comparison, the latest release with the bundle)`,
    };
  return existsSync(project.acknowledgements)
    ? { list: readAcknowledgements(project.acknowledgements, label), label }
    : { list: [], label };
}

export function runDiff(argv: readonly string[], io: CommandIo): number {
  try {
    const { values, positionals, help } = readFlags(COMMAND, argv);
    if (help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const format = values.format ?? "markdown";
    if (!(FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got ${JSON.stringify(format)}`);
    if (values.check && positionals.length)
      throw new UsageError("--check compares the latest release with generated/openapi.json; it takes no OLD or NEW");
    const project = projectFiles(values.root, io);
    const [before, after] = sides(positionals, io, project);
    const acks = acknowledgements(values.ack, positionals.length === 0, io, project);
    const report = applyAcknowledgements(compareDescriptions(before, after), acks.list, acks.label);
    const text = format === "json" ? renderJson(report) : renderMarkdown(report);
    const { summary } = report;
    const counts = `${summary.breaking} breaking (${summary.acknowledged} acknowledged), ${summary.compatible} compatible, ${report.changelog.length} changelog entries`;
    if (values.out !== undefined) {
      writeFileSync(resolve(io.cwd, values.out), text);
      io.stdout(`diff: ${before.source} → ${after.source}: ${counts}; report in ${values.out}\n`);
    } else {
      io.stdout(text);
    }
    if (summary.unacknowledged) {
      const ids = report.changes
        .filter((change) => change.severity === "breaking" && change.acknowledged === undefined)
        .map((change) => `  ${change.id}\n`);
      const one = summary.unacknowledged === 1;
      io.stderr(
        `diff: ${summary.unacknowledged} unacknowledged breaking change${one ? "" : "s"}; acknowledge ${one ? "it" : "each"} by id in ${acks.label} with a reason, or undo it:\n${ids.join("")}`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    // Bad input (a flag, a file, a ref) and a failure alike: one line, and the status CI reads as "not compared".
    io.stderr(`diff: ${(error as Error).message.split("\n")[0]}\n`);
    return 2;
  }
}

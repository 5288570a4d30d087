/**
 * The README of the tools package, written from the service model it was built from and the list of
 * commands, so that its version, commands and slugs are the package's own.
 */
import { readFileSync } from "node:fs";
import type { ServiceModel } from "../../model/service-model.ts";
import { DEFAULT_SANDBOX_PORT } from "../../sandbox/config.ts";
import { runtimeFile } from "../../tools/packaged.ts";
import { code, firstExample } from "../shared/package-build.ts";
import { BIN, COMMANDS, NPX } from "./commands.ts";

/** The first key of a paid account of the sandbox's default config, for the usage sample. */
function demoKey(): string {
  const config = JSON.parse(readFileSync(runtimeFile("sandbox/default-config.json"), "utf8")) as {
    accounts: Record<string, { plan: string; keys: string[] }>;
  };
  const key = Object.values(config.accounts).find((account) => account.plan === "paid")?.keys[0];
  if (!key) throw new Error("the sandbox's default config has no paid account");
  return key;
}

export function toolsReadme(model: ServiceModel, name: string, version: string): string {
  const route = model.createRoutes[0];
  if (!route) throw new Error("the description has no create route");
  const key = demoKey();
  const commands = COMMANDS.map((command) => `| ${code(`${NPX} ${command.name}`)} | ${command.summary} |`);
  return `# ${name}

Command-line tools of the asynchronous media-generation service, interface version ${code(model.version)}
(package version ${code(version)}), built from the service's OpenAPI 3.1 description, which ships with
them. One bin, ${code(BIN)}, run with ${code(NPX)} (the scoped name, which nobody else can publish;
in a package.json script, ${code(`${BIN} sandbox`)}); no dependencies (what it uses is bundled in); Node 20
or later.

\`\`\`sh
npm install --save-dev ${name}        # or the tarball: npm install --save-dev ./${name.replace("@", "").replace("/", "-")}-${version}.tgz
${NPX} sandbox --port ${DEFAULT_SANDBOX_PORT}
curl -s -X POST http://127.0.0.1:${DEFAULT_SANDBOX_PORT}${route.path} -H 'Authorization: Bearer ${key}' \\
  -H 'Content-Type: application/json' -d '${JSON.stringify(firstExample(model.doc, route.path)).replaceAll("'", "'\\''")}'
\`\`\`

## Commands

| command | what it does |
|---|---|
${commands.join("\n")}

${code(`${NPX} --help`)} lists them; ${code(`${NPX} <command> --help`)} shows a command's options.

## Sandbox

Accounts and keys, the job clock and the limits come from a config (${code("--config FILE")}); the
default, ${code(`${name}/sandbox/default-config.json`)}, has the key ${code(key)}. The config's
fields, the outcome markers (${code("[sandbox:failed]")} in a prompt, ...) and the rules the sandbox
applies are in ${code("sandbox/README.md")} of this package; where it says ${code("npm run sandbox --")}, run
${code(`${NPX} sandbox`)}.

## Conformance suite

Checks an implementation of the description: every operation's examples, negative bodies for every
schema constraint, authentication, responses against their schemas and headers, job lifecycles, and
the stateful rules (billing, rate-limit windows, concurrency, uploads, plan gate, retired models,
cooldown) where the target's declaration lends what they need. It states the credits it will spend
before it starts, and exits 0 (all passed), 1 (a check failed), 2 (a usage or declaration error) or
128 + a signal's number.

\`\`\`sh
${NPX} conformance --target https://your-implementation --config declaration.json --report-dir reports
# against this package's sandbox (default config), with the sandbox's declaration:
${NPX} conformance --target http://127.0.0.1:4020 --config node_modules/${name}/conformance/targets/sandbox.json
\`\`\`

The declaration's fields and the check groups are in ${code("conformance/README.md")} of this package
(where it says ${code("npm run conformance --")}, run ${code(`${NPX} conformance`)}); the reports go to
${code("conformance/reports/")} under the current folder unless ${code("--report-dir")} says otherwise. The
Prism contract mock and the Prism validation proxy (${code("--proxy")}) are development tools of the
description's repository and not in this package: ${code("--target")} is required.

## Files

| export | what it holds |
|---|---|
| ${code(`${name}/openapi.json`)}, ${code(`${name}/openapi.yaml`)} | the bundled description the tools serve and check, for other generators |
| ${code(`${name}/sandbox/default-config.json`)} | the sandbox's default config, a starting point for your own |
| ${code(`${name}/conformance/targets/sandbox.json`)} | the conformance declaration of the sandbox with that config, an example of your own |

The licences of the bundled packages are in ${code("THIRD-PARTY-LICENSES.md")}.
`;
}

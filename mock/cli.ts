/**
 * `npm run mock [-- --port N]`: Prism serving generated/openapi.yaml on 127.0.0.1 (port from
 * --port, MOCK_PORT, or 4010; Prism's own port behind the front from --prism-port or a free one).
 * Error cases are chosen with `Prefer: code=429, example=queue-full`; `npm run mock -- --list`
 * prints every operation's choices. It prints one line naming its URL; `--verbose` adds Prism's own
 * log. A bad option is one line and exit 2, a busy port one line and exit 1 (tools/command.ts).
 * Ctrl-C, SIGTERM (also through npm) or the death of the npm that launched it stops Prism with it.
 */
import { allowedOriginsSetting } from "../http-server/loopback-guard.ts";
import { Contract } from "../contract/contract.ts";
import { parseFlags, portSetting, runCommand } from "../tools/command.ts";
import { stopWhenAsked } from "../tools/process-lifecycle.ts";
import { selections } from "./front.ts";
import { startMock } from "./prism.ts";

const HELP = `usage: npm run mock -- [--port N] [--prism-port N] [--allow-origin ORIGIN] [--list] [--verbose]

Prism serving generated/openapi.yaml on 127.0.0.1, behind a front that answers what Prism cannot.

  --port N               MOCK_PORT           listen on 127.0.0.1:N, 0 for a free one (default 4010)
  --prism-port N                             Prism's own port behind the front (default: a free one)
  --allow-origin ORIGIN  MOCK_ALLOW_ORIGINS  a page origin allowed to call the mock, besides the docs served
                                             at http://127.0.0.1:8080 (repeat it, or list them comma-separated);
                                             "null" allows the docs opened from disk: allow it knowingly
  --list                                     print each operation's Prefer choices (code=..., example=...) and exit
  --verbose                                  also print Prism's own log (its private port, each request)
  --help                                     this text

Exit status: 0 stopped by a signal, 1 a failure (a port in use), 2 a bad option.`;

const { values } = parseFlags({
  name: "mock",
  help: HELP,
  options: {
    port: { type: "string" },
    "prism-port": { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    list: { type: "boolean" },
    verbose: { type: "boolean" },
  },
});

await runCommand(
  "mock",
  async () => {
    if (values.list) {
      const contract = new Contract();
      for (const op of contract.operations) {
        console.log(op.route);
        for (const selection of selections(contract, op)) console.log(`  Prefer: ${selection}`);
      }
      return;
    }
    const port = portSetting(values.port, "--port", "MOCK_PORT", 4010);
    const prismPort =
      values["prism-port"] === undefined
        ? undefined
        : portSetting(values["prism-port"], "--prism-port", "MOCK_PRISM_PORT", 0);
    const allowedOrigins = allowedOriginsSetting(values["allow-origin"], "MOCK_ALLOW_ORIGINS");
    // Prism's own log names its private port and every route it compiled: only asked for, it is shown.
    const mock = await startMock({ port, prismPort, allowedOrigins, verbose: values.verbose ?? false });
    console.log(
      `mock of generated/openapi.yaml listening on ${mock.baseUrl} (npm run mock -- --list shows the Prefer choices, --verbose Prism's log)`,
    );
    stopWhenAsked(() => mock.stop());
  },
  (busy) =>
    busy === Number(values.port ?? process.env.MOCK_PORT ?? 4010)
      ? "--port N (npm run mock -- --port N) or MOCK_PORT=N"
      : "--prism-port N",
);

/**
 * `npm run mock [-- --port N]`: Prism serving generated/openapi.yaml on 127.0.0.1 (port from
 * --port, MOCK_PORT, or 4010). Error cases are chosen with `Prefer: code=429, example=queue-full`;
 * `npm run mock -- --list` prints every operation's choices. It prints one line naming its URL;
 * `--verbose` adds Prism's own log. Ctrl-C, SIGTERM (also through npm) or the
 * death of the npm that launched it stops Prism with it.
 */
import { parseArgs } from "node:util";
import { portProblem, stopWhenAsked } from "../tools/process-lifecycle.ts";
import { Contract } from "../conformance/contract.ts";
import { selections } from "./front.ts";
import { startMock } from "./prism.ts";

const { values } = parseArgs({ options: { port: { type: "string" }, list: { type: "boolean" }, verbose: { type: "boolean" }, help: { type: "boolean" } } });

if (values.help) {
  console.log(`npm run mock [-- --port N] [-- --list] [-- --verbose]
  --port N   listen on 127.0.0.1:N (or MOCK_PORT; default 4010)
  --list     print each operation's Prefer choices (code=..., example=...) and exit
  --verbose  also print Prism's own log (its private port, each request)`);
  process.exit(0);
}

if (values.list) {
  const contract = new Contract();
  for (const op of contract.operations) {
    console.log(op.route);
    for (const selection of selections(contract, op)) console.log(`  Prefer: ${selection}`);
  }
  process.exit(0);
}

const flag = values.port !== undefined ? "--port" : "MOCK_PORT";
const given = values.port ?? process.env.MOCK_PORT ?? "4010";
const port = Number(given);
if (!/^\d+$/.test(given) || port > 65535) {
  console.error(`${flag}: "${given}" is not a port number (an integer from 0 to 65535)`);
  process.exit(2);
}

try {
  // Prism's own log names its private port and every route it compiled: only asked for, it is shown.
  const mock = await startMock({ port, verbose: values.verbose ?? false });
  console.log(`mock of generated/openapi.yaml listening on ${mock.baseUrl} (npm run mock -- --list shows the Prefer choices, --verbose Prism's log)`);
  stopWhenAsked(() => mock.stop());
} catch (error) {
  const problem = portProblem(error, port, "--port N (npm run mock -- --port N) or MOCK_PORT=N");
  if (!problem) throw error;
  console.error(`mock: ${problem}`);
  process.exit(2);
}

/**
 * `npm run mock [-- --port N]`: Prism serving generated/openapi.yaml on 127.0.0.1 (port from
 * --port, MOCK_PORT, or 4010). Error cases are chosen with `Prefer: code=429, example=queue-full`.
 */
import { parseArgs } from "node:util";
import { startMock } from "./prism.ts";

const { values } = parseArgs({ options: { port: { type: "string" } } });
const given = values.port ?? process.env.MOCK_PORT ?? "4010";
const port = Number(given);
if (!/^\d+$/.test(given) || port > 65535) {
  console.error(`${values.port !== undefined ? "--port" : "MOCK_PORT"}: "${given}" is not a port number (an integer from 0 to 65535)`);
  process.exit(2);
}

const mock = await startMock({ port, verbose: true });
console.log(`mock of generated/openapi.yaml listening on ${mock.baseUrl}`);
const stop = (): void => void mock.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

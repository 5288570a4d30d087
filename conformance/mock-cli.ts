/**
 * `npm run mock [-- --port N]`: Prism serving generated/openapi.yaml on 127.0.0.1 (port from
 * --port, MOCK_PORT, or 4010). Error cases are chosen with `Prefer: code=429, example=queue-full`.
 */
import { parseArgs } from "node:util";
import { startMock } from "./prism.ts";

const { values } = parseArgs({ options: { port: { type: "string" } } });
const port = Number(values.port ?? process.env.MOCK_PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port ${values.port ?? process.env.MOCK_PORT}`);

const mock = await startMock({ port, verbose: true });
console.log(`mock of generated/openapi.yaml listening on ${mock.baseUrl}`);
const stop = (): void => void mock.stop().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);

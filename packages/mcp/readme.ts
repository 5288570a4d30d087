/**
 * The README of the MCP package, written from the service model it was built from and the server's
 * own tool list and settings, so that its version, tools and variables are the package's own.
 */
import type { ServiceModel } from "../../model/service-model.ts";
import { code } from "../shared/package-build.ts";
import { BIN } from "./bin.ts";
import { DEFAULT_MCP_PORT, MCP_PATH } from "./http.ts";
import { BASE_URL_VARIABLE, BUDGET_VARIABLE, CONFIRM_VARIABLE, KEY_VARIABLE } from "./settings.ts";
import { toolDefinitions } from "./tools.ts";

export function mcpReadme(model: ServiceModel, name: string, version: string): string {
  const tools = toolDefinitions().map((tool) => `| ${code(tool.name)} | ${tool.description ?? ""} |`);
  const config = {
    mcpServers: {
      "media-service": {
        command: "npx",
        args: ["-y", name],
        env: { [KEY_VARIABLE]: "your key", [BASE_URL_VARIABLE]: "https://your-service", [BUDGET_VARIABLE]: "500" },
      },
    },
  };
  return `# ${name}

The MCP server of the asynchronous media-generation service, interface version ${code(model.version)}
(package version ${code(version)}), generated from the service's OpenAPI 3.1 description, which ships
with it. Agents (Claude, Cursor, VS Code, your own) list the models, quote, create jobs and follow
them to their result URLs; every create is quoted first and kept within a per-session credit budget.
One bin, ${code(BIN)}: stdio by default, Streamable HTTP on 127.0.0.1 with ${code("--http")}. Node 20 or later.

\`\`\`json
${JSON.stringify(config, null, 2)}
\`\`\`

Against the sandbox of ${code("@media-service/tools")}:

\`\`\`sh
npx @media-service/tools sandbox
${KEY_VARIABLE}=sandbox-demo-key ${BASE_URL_VARIABLE}=http://127.0.0.1:4020 ${BUDGET_VARIABLE}=500 npx -y ${name} --http
# an MCP client then connects to http://127.0.0.1:${DEFAULT_MCP_PORT}${MCP_PATH}
\`\`\`

## Settings

| variable | flag | what it is |
|---|---|---|
| ${code(KEY_VARIABLE)} | | the API key, from the environment only; it never appears in a result, a log line or an error |
| ${code(BASE_URL_VARIABLE)} | ${code("--base-url")} | the service's root address (required) |
| ${code(BUDGET_VARIABLE)} | ${code("--budget")} | credits one session may commit to creates, or ${code("unlimited")}; unset, priced creates are refused |
| ${code(CONFIRM_VARIABLE)} | ${code("--confirm-above")} | a create quoted above this asks the user first, where the client supports elicitation |

${code(`npx ${name} --help`)} lists every flag.

## Tools

| tool | what it does |
|---|---|
${tools.join("\n")}

A client that supports MCP Tasks gets ${code("create")} as a task that follows the job to its result
URLs; the others call ${code("wait_job")}, which never blocks longer than its ${code("max_seconds")}.
`;
}

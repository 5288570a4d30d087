/**
 * The typed-client code sample of an operation (generated/client.ts, `createClient`): create
 * routes call their area's create method keyed by slug, every other route goes through the
 * client's typed request methods by path.
 */
import { examplePath, type RequestExample } from "./request-example.ts";

const SETUP = `import { createClient } from "./generated/client.ts";

const client = createClient({ apiKey: process.env.API_KEY!, baseUrl: process.env.BASE_URL! });`;

/** `motion-control` -> `motionControl`, the client's name for an area. */
function areaKey(segment: string): string {
  return segment.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function literal(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

export function clientSample(request: RequestExample, modelLabel: string | undefined): string {
  const segments = request.template.split("/");
  if (modelLabel !== undefined) {
    const area = areaKey(segments[2] ?? "");
    const slug = segments.at(-1) ?? "";
    return `${SETUP}\n\nconst job = await client.${area}.create(${literal(slug)}, ${literal(request.body)});\nconsole.log(job);`;
  }
  const options: string[] = [];
  if (Object.keys(request.pathParams).length > 0 || Object.keys(request.query).length > 0) {
    const params: string[] = [];
    if (Object.keys(request.pathParams).length > 0) params.push(`path: ${literal(request.pathParams)}`);
    if (Object.keys(request.query).length > 0) params.push(`query: ${literal(request.query)}`);
    options.push(`params: { ${params.join(", ")} }`);
  }
  if (request.body !== undefined) options.push(`body: ${literal(request.body)}`);
  const args = [literal(request.template), ...(options.length > 0 ? [`{ ${options.join(", ")} }`] : [])].join(", ");
  return `${SETUP}\n\n// ${request.method.toUpperCase()} ${examplePath(request)}\nconst { data, error } = await client.${request.method.toUpperCase()}(${args});\nconsole.log(error ?? data);`;
}

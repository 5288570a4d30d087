/**
 * What the reference page's try-it console knows of each operation, computed at build time from the
 * service model (docs-src/console-operations.ts) and carried in the page's data script with the
 * description. Types only: shared by the builder and the browser code.
 */

export interface ConsoleOperation {
  operationId: string;
  summary: string;
  method: "get" | "post";
  /** The path as written in the description, e.g. `/v1/images/{id}`. */
  template: string;
  /** Path parameter name -> example value. */
  pathParams: Record<string, string>;
  /** Every documented query parameter, with its example or "" (an empty field is not sent). */
  query: Record<string, string>;
  /** The request-body examples, in the description's order (none when it takes no body). */
  examples: ConsoleExample[];
  /** For a create route whose response names its job: how to follow the job. */
  job: JobFollowing | null;
}

export interface ConsoleExample {
  /** The example's key in the description. */
  name: string;
  /** Its summary, as Redoc names it ("Text-to-image at the default size"); the key when it has none. */
  summary: string;
  value: unknown;
}

export interface JobFollowing {
  /** The create response's field holding the job id. */
  idField: string;
  /** The area's poll path, `/v1/images/{id}`. */
  pollPath: string;
  /** The area's polling interval: its cadence's minimum, else the client's default. */
  intervalMs: number;
  /** The cadence in the description's words, shown beside the interval. */
  cadence: string | null;
  /** Poll-response fields that hold the result once the job has succeeded. */
  resultFields: string[];
}

export interface ConsoleData {
  /** The local sandbox's address (`npm run sandbox`) at its default port. */
  defaultBaseUrl: string;
  /** Where the docs are served for the sandbox and the mock to accept their pages without a flag. */
  allowedDocsOrigin: string;
  /** The sandbox's demo key, offered as a hint only (never filled in). */
  demoKeyHint: string;
  operations: ConsoleOperation[];
  /** The account credits route (GET), read before and after a job to show its charge. */
  creditsPath: string;
  /** Header names highlighted in the answer: the rate-limit ones and Retry-After (lower case). */
  highlightedHeaders: string[];
  /** JobStatus's terminal values and the success one. */
  terminalStatuses: string[];
  successStatus: string;
}

/** The description and the console's data, as the page's data script sets them. */
export interface ReferenceData {
  spec: unknown;
  console: ConsoleData;
}

/** The global the data script (reference-data.js) assigns, read by the page's bundle. */
export const REFERENCE_DATA_GLOBAL = "__MEDIA_REFERENCE__";

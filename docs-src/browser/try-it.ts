/**
 * The try-it console, in the page's flow under the operation it was opened on: one operation's request (base URL, API key,
 * path and query parameters, a named example's body, all editable), the answer (status, headers
 * with the rate-limit ones highlighted, body) and, for a create route, its job followed to the end
 * with the credits before and after. The key lives in this page's memory and sessionStorage only.
 */
import type { ConsoleData, ConsoleOperation } from "./console-data.ts";
import { h, showBody } from "./dom.ts";
import { LOCAL_SERVERS_PATH } from "../site-pages.ts";
import {
  balanceChange,
  fillPath,
  followJob,
  noAnswerAdvice,
  resultUrls,
  send,
  somethingAnswers,
  type Answer,
} from "./requests.ts";

/** sessionStorage keys: the key survives moving between the site's pages, never the browser session. */
const STORED_KEY = "media-docs.api-key";
const STORED_BASE = "media-docs.base-url";

function stored(name: string): string | null {
  try {
    return sessionStorage.getItem(name);
  } catch {
    return null; // storage refused (some file:// settings): memory only
  }
}

function store(name: string, value: string): void {
  try {
    sessionStorage.setItem(name, value);
  } catch {
    // Memory only.
  }
}

const headerRows = (headers: Answer["headers"], className?: string): HTMLElement[] =>
  headers.map(([name, value]) => h("tr", className ? { class: className } : {}, h("th", {}, name), h("td", {}, value)));

/** The answer: the headers that matter (rate limits, Retry-After) shown, the others folded. */
function answerView(answer: Answer, highlighted: readonly string[]): HTMLElement {
  const shown = answer.headers.filter(([name]) => highlighted.includes(name));
  const others = answer.headers.filter(([name]) => !highlighted.includes(name));
  return h(
    "section",
    { class: "try-it-answer", "data-status": String(answer.status) },
    h(
      "p",
      { class: `status status-${String(answer.status)[0]}xx` },
      `${answer.status} ${answer.statusText}`,
      h("span", { class: "muted" }, ` ${answer.method} ${answer.url} · ${answer.elapsedMs} ms`),
    ),
    shown.length > 0
      ? h("table", { class: "headers shown-headers" }, h("tbody", {}, ...headerRows(shown, "highlight")))
      : null,
    others.length > 0
      ? h(
          "details",
          {},
          h("summary", {}, `Other headers (${others.length})`),
          h("table", { class: "headers" }, h("tbody", {}, ...headerRows(others))),
        )
      : null,
    h("pre", { class: "body" }, showBody(answer.body)),
  );
}

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, label), input, hint ? h("small", {}, hint) : null);
}

export class TryItConsole {
  readonly element: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly output: HTMLElement;
  private readonly baseUrl: HTMLInputElement;
  private readonly apiKey: HTMLInputElement;
  private readonly route: HTMLElement;
  /** The operation the console is open on, and its button. */
  private current: { operationId: string; button: HTMLElement } | null = null;
  private running: AbortController | null = null;

  constructor(private readonly data: ConsoleData) {
    this.baseUrl = h("input", { type: "url", name: "base-url", spellcheck: "false" });
    this.baseUrl.value = stored(STORED_BASE) ?? data.defaultBaseUrl;
    this.baseUrl.addEventListener("change", () => store(STORED_BASE, this.baseUrl.value));
    const baseHint = h("small", {}, "npm run sandbox serves the local sandbox here");
    this.apiKey = h("input", { type: "password", name: "api-key", autocomplete: "off", spellcheck: "false" });
    this.apiKey.value = stored(STORED_KEY) ?? "";
    this.apiKey.addEventListener("change", () => store(STORED_KEY, this.apiKey.value));
    this.route = h("p", { class: "route" });
    this.form = h("form", { class: "try-it-request" });
    this.output = h("div", { class: "try-it-output", "aria-live": "polite" });
    const close = h("button", { type: "button", class: "try-it-close", "aria-label": "Close the console" }, "×");
    close.addEventListener("click", () => this.close());
    this.element = h(
      "section",
      { id: "try-it", class: "try-it", "aria-label": "Try it" },
      h("header", {}, h("h3", {}, "Try it"), close),
      this.route,
      h(
        "div",
        { class: "try-it-settings" },
        h("label", { class: "field" }, h("span", {}, "Base URL"), this.baseUrl, baseHint),
        field("API key", this.apiKey, `kept in this tab only; the sandbox's demo key is ${data.demoKeyHint}`),
      ),
      this.form,
      this.output,
    );
    void this.findSandbox(baseHint);
  }

  /**
   * Asks the docs server where the sandbox started in this project listens (served pages only), and
   * takes that address unless the reader chose one.
   */
  private async findSandbox(hint: HTMLElement): Promise<void> {
    if (stored(STORED_BASE) !== null || !location.protocol.startsWith("http")) return;
    try {
      const found = ((await (await fetch(LOCAL_SERVERS_PATH, { cache: "no-store" })).json()) as { sandbox?: unknown })
        .sandbox;
      if (typeof found !== "string" || this.baseUrl.value !== this.data.defaultBaseUrl) return;
      this.baseUrl.value = found;
      hint.textContent = `the sandbox running in this project (npm run sandbox) listens here`;
    } catch {
      // Not our docs server (a static host): the default stays.
    }
  }

  /**
   * Opens the console under an operation's button (its request filled from its examples), or
   * closes it when it is already open there.
   */
  toggle(operationId: string, button: HTMLElement): void {
    if (this.current?.operationId === operationId) {
      this.close();
      return;
    }
    const operation = this.data.operations.find((candidate) => candidate.operationId === operationId);
    if (!operation) return;
    this.close();
    this.show(operation);
    this.current = { operationId, button };
    button.setAttribute("aria-expanded", "true");
    button.after(this.element);
    this.element.classList.add("open");
  }

  private close(): void {
    this.running?.abort(new Error("the console was closed"));
    this.current?.button.setAttribute("aria-expanded", "false");
    this.current = null;
    this.element.classList.remove("open");
    this.element.remove();
  }

  private show(operation: ConsoleOperation): void {
    this.output.replaceChildren();
    const pathInputs = this.inputs(operation.pathParams);
    const queryInputs = this.inputs(operation.query);
    const body = h("textarea", { name: "body", rows: "6", spellcheck: "false" });
    // Each example under the summary Redoc shows for it, so the two name it alike.
    const examples = operation.examples;
    const example = h(
      "select",
      { name: "example" },
      ...examples.map(({ name, summary }) => h("option", { value: name }, summary)),
    );
    const fill = (): void => {
      body.value = showBody(examples.find(({ name }) => name === example.value)?.value);
    };
    example.addEventListener("change", fill);
    if (examples.length > 0) fill();
    const submit = h("button", { type: "submit", class: "try-it-send" }, "Send");
    this.route.replaceChildren(h("b", {}, operation.method.toUpperCase()), ` ${operation.template}`);
    this.form.replaceChildren();
    this.form.append(
      ...Object.entries(pathInputs).map(([name, input]) => field(`path: ${name}`, input)),
      ...Object.entries(queryInputs).map(([name, input]) => field(`query: ${name}`, input, "empty: not sent")),
      ...(examples.length > 0 ? [field("Example", example), field("Body (JSON)", body)] : []),
      ...(operation.job
        ? [
            h(
              "p",
              { class: "muted" },
              `Follows the job every ${operation.job.intervalMs / 1000} s${operation.job.cadence ? ` (${operation.job.cadence})` : ""} and shows its charge.`,
            ),
          ]
        : []),
      submit,
    );
    this.form.onsubmit = (event) => {
      event.preventDefault();
      const values = (inputs: Record<string, HTMLInputElement>) =>
        Object.fromEntries(Object.entries(inputs).map(([name, input]) => [name, input.value]));
      const path = fillPath(operation.template, values(pathInputs), values(queryInputs));
      void this.run(operation, path, examples.length > 0 ? body.value : undefined);
    };
  }

  private inputs(values: Record<string, string>): Record<string, HTMLInputElement> {
    return Object.fromEntries(
      Object.entries(values).map(([name, value]) => {
        const input = h("input", { type: "text", name, spellcheck: "false" });
        input.value = value;
        return [name, input];
      }),
    );
  }

  private note(text: string, kind = "note"): HTMLElement {
    const line = h("p", { class: kind }, text);
    this.output.append(line);
    return line;
  }

  private async run(operation: ConsoleOperation, path: string, body: string | undefined): Promise<void> {
    this.running?.abort(new Error("sent again"));
    const controller = new AbortController();
    this.running = controller;
    this.output.replaceChildren();
    const apiKey = this.apiKey.value.trim();
    if (!apiKey) {
      this.note("Enter an API key first.", "problem");
      return;
    }
    if (body !== undefined) {
      try {
        JSON.parse(body);
      } catch (error) {
        this.note(`Body: not JSON (${(error as Error).message}); sent as written.`, "problem");
      }
    }
    const base = { baseUrl: this.baseUrl.value, apiKey, signal: controller.signal };
    try {
      const creditsBefore = operation.job ? await send({ ...base, method: "get", path: this.data.creditsPath }) : null;
      const answer = await send({ ...base, method: operation.method, path, ...(body !== undefined && { body }) });
      this.output.append(answerView(answer, this.data.highlightedHeaders));
      const id = (answer.body as Record<string, unknown> | null)?.[operation.job?.idField ?? ""];
      if (!operation.job || answer.status !== 200 || (typeof id !== "string" && typeof id !== "number")) return;
      await this.follow(operation.job, String(id), base, creditsBefore);
    } catch (error) {
      if (controller.signal.aborted) return;
      const line = this.note(
        `No answer from ${this.baseUrl.value} (${(error as Error).message}); finding out why…`,
        "problem",
      );
      const answered = await somethingAnswers(this.baseUrl.value);
      line.textContent = noAnswerAdvice(this.baseUrl.value, location.origin, answered, this.data.allowedDocsOrigin);
    }
  }

  private async follow(
    job: NonNullable<ConsoleOperation["job"]>,
    id: string,
    base: { baseUrl: string; apiKey: string; signal: AbortSignal },
    creditsBefore: Answer | null,
  ): Promise<void> {
    const section = h("section", { class: "try-it-job", "data-job": id });
    const progress = h(
      "p",
      { class: "job-status" },
      `Job ${id}: polling ${job.pollPath.replace("{id}", id)} every ${job.intervalMs / 1000} s`,
    );
    const lastPoll = h("div", {});
    section.append(h("h3", {}, "Job"), progress, lastPoll);
    this.output.append(section);
    const statuses: string[] = [];
    const finished = await followJob(base, job, id, this.data, ({ polls, status }) => {
      statuses.push(status ?? "?");
      progress.textContent = `Job ${id}: ${statuses.join(" → ")}`;
      lastPoll.replaceChildren(answerView(polls[polls.length - 1]!, this.data.highlightedHeaders));
    });
    section.dataset.final = finished.status ?? "";
    const succeeded = finished.status === this.data.successStatus;
    section.append(
      h("p", { class: `job-final ${succeeded ? "ok" : "problem"}` }, `Final status: ${finished.status ?? "no status"}`),
    );
    const urls = succeeded ? resultUrls(finished.polls[finished.polls.length - 1]?.body, job.resultFields) : [];
    if (urls.length > 0) {
      // Links only: result files are not loaded, so the page makes no request outside the sandbox.
      section.append(
        h("h4", {}, `Results (${urls.length})`),
        h(
          "ul",
          { class: "job-results" },
          ...urls.map((url) => h("li", {}, h("a", { href: url, rel: "noreferrer", target: "_blank" }, url))),
        ),
      );
    }
    if (!creditsBefore) return;
    const creditsAfter = await send({ ...base, method: "get", path: this.data.creditsPath });
    const changes = balanceChange(creditsBefore.body, creditsAfter.body);
    section.append(
      h("h4", {}, "Charge"),
      h(
        "p",
        { class: "job-charge" },
        changes.length === 0
          ? `No change in ${this.data.creditsPath}.`
          : changes.map(([name, change]) => `${name}: ${change > 0 ? "−" : "+"}${Math.abs(change)}`).join(", "),
      ),
      h(
        "details",
        {},
        h("summary", {}, `${this.data.creditsPath} before and after`),
        h("pre", { class: "body" }, `before: ${showBody(creditsBefore.body)}\nafter: ${showBody(creditsAfter.body)}`),
      ),
    );
  }
}

/**
 * Every page's script: the one search box across guides and reference (its index, search-index.js,
 * is loaded the first time the box is used; `/` or Ctrl+K focus it; each result with the words
 * around its match, the first eight, then all on demand; the arrow keys move through them) and, on
 * narrow screens, the button that opens the sidebar. Results are built with DOM calls: no indexed
 * text is ever parsed as HTML.
 */
import MiniSearch from "minisearch";
import { SEARCH_INDEX_FILE } from "../site-pages.ts";
import { h } from "./dom.ts";
import { SEARCH_INDEX_GLOBAL, SEARCH_OPTIONS, SEARCH_QUERY_OPTIONS, type SearchEntry } from "./search-data.ts";

declare global {
  interface Window {
    [SEARCH_INDEX_GLOBAL]?: string;
  }
}

const INDEX_SCRIPT = SEARCH_INDEX_FILE;
/** Results shown at first; the rest on demand. */
const FIRST_RESULTS = 8;
/** Characters of an entry's text shown around its first match. */
const SNIPPET_CHARS = 160;

let index: Promise<MiniSearch<SearchEntry>> | null = null;

function loadIndex(): Promise<MiniSearch<SearchEntry>> {
  index ??= new Promise((resolve, reject) => {
    const script = h("script", { src: INDEX_SCRIPT });
    script.addEventListener("load", () => {
      const json = window[SEARCH_INDEX_GLOBAL];
      if (json) resolve(MiniSearch.loadJSON<SearchEntry>(json, SEARCH_OPTIONS));
      else reject(new Error(`${INDEX_SCRIPT} set no index`));
    });
    script.addEventListener("error", () => reject(new Error(`${INDEX_SCRIPT} did not load`)));
    document.head.append(script);
  });
  return index;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The words around the first of `terms` in `text` (a word starting with one: the search matches
 * prefixes), with each match marked; built from text nodes, so nothing of the index is parsed as HTML.
 */
function snippet(text: string, terms: readonly string[]): HTMLElement {
  const words = terms.filter(Boolean).map(escapeRegExp);
  const pattern = words.length > 0 ? new RegExp(`\\b(?:${words.join("|")})\\w*`, "gi") : null;
  const first = pattern ? text.search(pattern) : -1;
  const start = first <= SNIPPET_CHARS / 3 ? 0 : text.lastIndexOf(" ", first - SNIPPET_CHARS / 3) + 1;
  const cut = start + SNIPPET_CHARS;
  // Ends at a word's end: the last space before the cut, if the text goes on past it.
  const end = cut >= text.length ? text.length : Math.max(text.lastIndexOf(" ", cut), start + 1, first + 1);
  const shown = `${start > 0 ? "… " : ""}${text.slice(start, end).trim()}${end < text.length ? " …" : ""}`;
  const parts: Array<string | HTMLElement> = [];
  let at = 0;
  for (const match of pattern ? shown.matchAll(pattern) : []) {
    parts.push(shown.slice(at, match.index), h("mark", {}, match[0]));
    at = (match.index ?? 0) + match[0].length;
  }
  parts.push(shown.slice(at));
  return h("span", { class: "result-snippet" }, ...parts);
}

function resultItem(hit: {
  id: unknown;
  title?: unknown;
  page?: unknown;
  excerpt?: unknown;
  terms: string[];
}): HTMLElement {
  return h(
    "li",
    {},
    h(
      "a",
      { href: String(hit.id) },
      h("span", { class: "result-title" }, String(hit.title)),
      h("span", { class: "result-page" }, String(hit.page)),
      snippet(String(hit.excerpt ?? ""), hit.terms),
    ),
  );
}

function setUpSearch(input: HTMLInputElement, list: HTMLOListElement): void {
  const show = async (all = false): Promise<void> => {
    const query = input.value.trim();
    if (query.length < 2) {
      list.hidden = true;
      list.replaceChildren();
      return;
    }
    const hits = (await loadIndex()).search(query, SEARCH_QUERY_OPTIONS);
    if (input.value.trim() !== query) return; // typed on meanwhile
    const shown = all ? hits : hits.slice(0, FIRST_RESULTS);
    const more = h("li", { class: "more-results" });
    if (shown.length < hits.length) {
      const button = h("button", { type: "button" }, `Show all ${hits.length} results`);
      button.addEventListener("click", () => {
        void show(true).then(() => list.querySelectorAll("a")[FIRST_RESULTS]?.focus());
      });
      more.append(button);
    }
    list.replaceChildren(
      ...(hits.length === 0
        ? [h("li", { class: "no-results" }, `Nothing found for “${query}”`)]
        : [...shown.map(resultItem), ...(more.childElementCount > 0 ? [more] : [])]),
    );
    list.hidden = false;
  };
  input.addEventListener("focus", () => {
    void loadIndex();
    if (list.childElementCount > 0) list.hidden = false;
  });
  // Focus leaving the box and its results (a click elsewhere, Tab) folds the results away.
  input.parentElement?.addEventListener("focusout", (event) => {
    if (!input.parentElement?.contains(event.relatedTarget as Node | null)) list.hidden = true;
  });
  input.addEventListener("input", () => void show());
  // The arrow keys move between the box and the results; Escape clears the box, or leaves it empty.
  input.parentElement?.addEventListener("keydown", (event) => {
    const links = [...list.querySelectorAll<HTMLElement>("a, .more-results button")];
    const at = links.indexOf(document.activeElement as HTMLElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = event.key === "ArrowDown" ? at + 1 : at - 1;
      if (next < 0) input.focus();
      else links[Math.min(next, links.length - 1)]?.focus();
    } else if (event.key === "Escape") {
      // The first clears the box, the next leaves it.
      if (input.value === "") {
        input.blur();
        return;
      }
      input.value = "";
      input.focus();
      void show();
    } else if (event.key === "Enter" && document.activeElement === input) {
      list.querySelector("a")?.click();
    }
  });
  // A result on this same page (the reference's operations) only changes the hash: close the list.
  list.addEventListener("click", (event) => {
    if ((event.target as HTMLElement).closest("a")) list.hidden = true;
  });
  // "/" and Ctrl+K (⌘K) focus the search from anywhere on the page but a field being typed in.
  document.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    const typing = target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
    const slash = event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey;
    const commandK = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey;
    if (!slash && !commandK) return;
    event.preventDefault();
    input.focus();
    input.select();
  });
}

function setUpMenu(button: HTMLButtonElement, sidebar: HTMLElement): void {
  button.addEventListener("click", () => {
    const open = sidebar.classList.toggle("open");
    button.setAttribute("aria-expanded", String(open));
  });
  sidebar.addEventListener("click", (event) => {
    if ((event.target as HTMLElement).closest("a")) {
      sidebar.classList.remove("open");
      button.setAttribute("aria-expanded", "false");
    }
  });
}

const input = document.getElementById("site-search") as HTMLInputElement | null;
const list = document.getElementById("site-search-results") as HTMLOListElement | null;
if (input && list) setUpSearch(input, list);
const button = document.querySelector<HTMLButtonElement>(".menu-toggle");
const sidebar = document.getElementById("site-sidebar");
// The reference page's sidebar is Redoc's (docs-src/browser/reference.ts wires the button to it).
if (button && sidebar && !document.body.classList.contains("reference-page")) setUpMenu(button, sidebar);

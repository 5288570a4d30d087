/**
 * Every page's script: the one search box across guides and reference (its index, search-index.js,
 * is loaded the first time the box is used) and, on narrow screens, the button that opens the
 * sidebar. Results are built with DOM calls: no indexed text is ever parsed as HTML.
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
const MAX_RESULTS = 8;

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

function setUpSearch(input: HTMLInputElement, list: HTMLOListElement): void {
  const show = async (): Promise<void> => {
    const query = input.value.trim();
    if (query.length < 2) {
      list.hidden = true;
      list.replaceChildren();
      return;
    }
    const hits = (await loadIndex()).search(query, SEARCH_QUERY_OPTIONS).slice(0, MAX_RESULTS);
    if (input.value.trim() !== query) return; // typed on meanwhile
    list.replaceChildren(
      ...(hits.length === 0
        ? [h("li", { class: "no-results" }, `Nothing found for “${query}”`)]
        : hits.map((hit) =>
            h(
              "li",
              {},
              h(
                "a",
                { href: String(hit.id) },
                h("span", { class: "result-title" }, String(hit.title)),
                h("span", { class: "result-page" }, String(hit.page)),
              ),
            ),
          )),
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
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      input.value = "";
      void show();
    }
    if (event.key === "Enter") list.querySelector("a")?.click();
  });
  // A result on this same page (the reference's operations) only changes the hash: close the list.
  list.addEventListener("click", () => {
    list.hidden = true;
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

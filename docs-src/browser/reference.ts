/**
 * The reference page's script: renders Redoc from the description the data script carries (no
 * fetch, so the page works opened from disk), in dark colours when the system asks for them; puts
 * the site's pages at the top of Redoc's sidebar; and adds a "Try it" button to
 * every operation, opening the console in the page's flow, under that operation's heading.
 */
import { REFERENCE_DATA_GLOBAL, type ReferenceData } from "./console-data.ts";
import { h } from "./dom.ts";
import { TryItConsole } from "./try-it.ts";

/** The part of Redoc's standalone bundle this page calls. */
interface RedocStandalone {
  init(
    spec: unknown,
    options: Record<string, unknown>,
    element: HTMLElement,
    callback?: (error?: unknown) => void,
  ): void;
}

declare global {
  interface Window {
    Redoc: RedocStandalone;
    [REFERENCE_DATA_GLOBAL]: ReferenceData;
  }
}

/** Redoc's colours for a dark system theme, matching site.css's dark palette. */
const DARK_THEME = {
  colors: {
    primary: { main: "#8ab4f8" },
    text: { primary: "#e4e7eb", secondary: "#9aa5b1" },
    border: { dark: "#3e4c59", light: "#323f4b" },
    gray: { 50: "#1f2933", 100: "#323f4b" },
  },
  schema: { nestedBackground: "#1f2933", linesColor: "#52606d", typeNameColor: "#9aa5b1", typeTitleColor: "#9aa5b1" },
  typography: {
    links: { color: "#8ab4f8", visited: "#8ab4f8", hover: "#aecbfa" },
    code: { color: "#f0b37e", backgroundColor: "#1f2933" },
  },
  sidebar: { backgroundColor: "#17212b", textColor: "#e4e7eb", activeTextColor: "#8ab4f8" },
  rightPanel: { backgroundColor: "#0b1117" },
};

/**
 * The layout, in both colour schemes: a narrower menu and less padding beside the columns, and a
 * code panel of 52% of the rest in a 12 px monospace font, so that at 1280 px its 64-column sample
 * lines show whole beside a middle column of about as much (Redoc's defaults: 40% in 13 px Courier,
 * about 37 columns).
 */
const LAYOUT = {
  sidebar: { width: "220px" },
  rightPanel: { width: "52%" },
  spacing: { sectionHorizontal: 24 },
  typography: {
    code: {
      fontSize: "12px",
      fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace',
    },
  },
};

const OPTIONS = {
  // The description's Markdown is data: Redoc drops its raw HTML's scripts and event handlers.
  sanitize: true,
  // The site's own search box covers guides and reference; Redoc's would cover the reference only.
  disableSearch: true,
  scrollYOffset: "header.site-header",
  expandResponses: "200",
  pathInMiddlePanel: true,
  requiredPropsFirst: true,
  sortEnumsAlphabetically: false,
};

/**
 * The site's pages at the top of Redoc's sidebar. On narrow screens Redoc folds that sidebar behind
 * a floating button laid over the content; the header's menu button opens it instead, and the
 * floating one is hidden (site.css), so nothing covers the page.
 */
/** Two theme objects merged key by key (the dark colours over the layout). */
function merged(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = result[key];
    result[key] =
      typeof value === "object" && value !== null && typeof under === "object" && under !== null
        ? merged(under as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}

function joinSidebars(): void {
  const sidebar = document.getElementById("site-sidebar");
  const menu = document.querySelector(".menu-content");
  const toggle = document.querySelector<HTMLButtonElement>(".menu-toggle");
  if (!sidebar || !menu?.parentElement || !toggle) return;
  menu.prepend(sidebar);
  const redocButton = [...menu.parentElement.children].find(
    (child) => child !== menu && !child.classList.contains("api-content") && child.querySelector("svg"),
  );
  if (!(redocButton instanceof HTMLElement)) return;
  redocButton.classList.add("redoc-menu-button");
  toggle.addEventListener("click", () => {
    redocButton.click();
    toggle.setAttribute("aria-expanded", String(toggle.getAttribute("aria-expanded") !== "true"));
  });
}

function addButtons(tryIt: TryItConsole): void {
  for (const section of document.querySelectorAll<HTMLElement>('[data-section-id^="operation/"]')) {
    const operationId = section.dataset.sectionId!.slice("operation/".length);
    const heading = section.querySelector("h2");
    if (!heading || section.querySelector(".try-it-open")) continue;
    const button = h(
      "button",
      { type: "button", class: "try-it-open", "data-operation": operationId, "aria-expanded": "false" },
      "Try it",
    );
    button.addEventListener("click", () => tryIt.toggle(operationId, button));
    heading.after(button);
  }
}

const data = window[REFERENCE_DATA_GLOBAL];
const tryIt = new TryItConsole(data.console);
const dark = matchMedia("(prefers-color-scheme: dark)").matches;
window.Redoc.init(
  data.spec,
  { ...OPTIONS, theme: dark ? merged(LAYOUT, DARK_THEME) : LAYOUT },
  document.getElementById("redoc")!,
  (error) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    joinSidebars();
    addButtons(tryIt);
    // An address like reference.html#try-it/createImageIA opens the console on that operation.
    const wanted = /^#try-it\/(.+)$/.exec(location.hash)?.[1];
    const button = wanted
      ? document.querySelector<HTMLButtonElement>(`.try-it-open[data-operation="${CSS.escape(wanted)}"]`)
      : null;
    if (wanted && button) {
      tryIt.toggle(wanted, button);
      button.scrollIntoView({ block: "start" });
    }
  },
);

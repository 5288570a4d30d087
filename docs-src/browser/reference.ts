/**
 * The reference page's script: renders Redoc from the description the data script carries (no
 * fetch, so the page works opened from disk), then puts a "Try it" button on every operation, each
 * opening the console beside Redoc on that operation.
 */
import { REFERENCE_DATA_GLOBAL, type ReferenceData } from "./console-data.ts";
import { h } from "./dom.ts";
import { TryItConsole } from "./try-it.ts";

/** The part of Redoc's standalone bundle this page calls. */
interface RedocStandalone {
  init(spec: unknown, options: Record<string, unknown>, element: HTMLElement, callback?: (error?: unknown) => void): void;
}

declare global {
  interface Window {
    Redoc: RedocStandalone;
    [REFERENCE_DATA_GLOBAL]: ReferenceData;
  }
}

const OPTIONS = {
  scrollYOffset: "nav.site-nav",
  expandResponses: "200",
  pathInMiddlePanel: true,
  requiredPropsFirst: true,
  sortEnumsAlphabetically: false,
};

function addButtons(tryIt: TryItConsole): void {
  for (const section of document.querySelectorAll<HTMLElement>('[data-section-id^="operation/"]')) {
    const operationId = section.dataset.sectionId!.slice("operation/".length);
    const heading = section.querySelector("h2");
    if (!heading || section.querySelector(".try-it-open")) continue;
    const button = h("button", { type: "button", class: "try-it-open", "data-operation": operationId }, "Try it");
    button.addEventListener("click", () => tryIt.open(operationId));
    heading.after(button);
  }
}

const data = window[REFERENCE_DATA_GLOBAL];
const tryIt = new TryItConsole(data.console);
document.body.append(tryIt.element);
window.Redoc.init(data.spec, OPTIONS, document.getElementById("redoc")!, (error) => {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  addButtons(tryIt);
  // An address like reference.html#try-it/createImageIA opens the console on that operation.
  const wanted = /^#try-it\/(.+)$/.exec(location.hash)?.[1];
  if (wanted) tryIt.open(wanted);
});

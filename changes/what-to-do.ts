/** What a client developer does about a breaking change, by what it touches: the diff's report and a release's notes say it alike. */
import type { Change } from "./change.ts";

export function whatToDo(change: Change): string {
  const { rule, detail } = change;
  if (rule === "route-removed")
    return detail
      ? "move to a current model of the same kind; calls to this route now answer 410 model_retired."
      : "stop calling this route.";
  if (rule === "path-template-changed")
    return "rename the path parameter where your code names the route by its template (the typed `client.api`, `paths[...]`); the URLs you send stay the same.";
  if (rule === "operation-id-changed") return "rename your calls of the generated method, as the change says.";
  if (rule.startsWith("security-")) return "change how your client sends its key, as the change says.";
  if (rule === "service-model-unreadable")
    return "stay on the previous version: this description's limits, Retry-After and prices cannot be read.";
  if (rule === "request-enum-value-removed") return `stop sending ${detail}; send one of the values still allowed.`;
  if (rule === "response-enum-value-added")
    return `handle ${detail} wherever your code reads this value (a switch over its values, a type listing them).`;
  if (rule === "response-property-removed") return "stop reading this field: answers no longer carry it.";
  if (rule.startsWith("request-") || rule.includes("parameter") || rule.includes("request-body"))
    return "change the requests you send to fit; the service refuses what it no longer accepts.";
  return "update the code that reads answers to handle what they may now hold or lack.";
}

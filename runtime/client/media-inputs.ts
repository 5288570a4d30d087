/** Checks media input fields against the forms their x-media accepts, before anything is sent. */
import { InvalidInputError } from "./errors.ts";
import type { InputForm } from "./route-table.ts";

export function checkMediaInputs(body: unknown, media: Readonly<Record<string, readonly InputForm[]>>): void {
  if (typeof body !== "object" || body === null) throw new InvalidInputError("body", "must be a JSON object");
  for (const [field, accepted] of Object.entries(media)) {
    const value = (body as Record<string, unknown>)[field];
    const list = Array.isArray(value);
    for (const [index, item] of (list ? value : value === undefined ? [] : [value]).entries()) {
      const name = `body.${field}${list ? `[${index}]` : ""}`;
      if (typeof item !== "string") throw new InvalidInputError(name, "must be a string");
      // A URL may be a public URL or an uploaded-file URL, which look alike.
      const forms: InputForm[] = /^data:/i.test(item) ? ["data-uri"] : /^https?:\/\//i.test(item) ? ["public-url", "uploaded-file-url"] : ["raw-base64"];
      if (!forms.some((form) => accepted.includes(form))) throw new InvalidInputError(name, `accepts ${accepted.join(", ")}; got a ${forms.join(" or ")}`);
    }
  }
}

/** Checks media input fields against the forms their x-media accepts, before anything is sent. */
import { InvalidInputError } from "./errors.ts";
import type { InputForm } from "./route-table.ts";

/** The forms a value can be; a URL may be a public URL or an uploaded-file URL, which look alike. */
function formsOf(value: string): readonly InputForm[] {
  if (/^data:/i.test(value)) return ["data-uri"];
  if (/^https?:\/\//i.test(value)) return ["public-url", "uploaded-file-url"];
  return ["raw-base64"];
}

export function checkMediaInputs(body: unknown, media: Readonly<Record<string, readonly InputForm[]>>): void {
  if (typeof body !== "object" || body === null) throw new InvalidInputError("body", "must be a JSON object");
  for (const [field, accepted] of Object.entries(media)) {
    const value = (body as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value.map((item, index) => [`${field}[${index}]`, item] as const) : [[field, value] as const];
    for (const [name, item] of items) {
      if (typeof item !== "string") throw new InvalidInputError(`body.${name}`, "must be a string");
      const forms = formsOf(item);
      if (!forms.some((form) => accepted.includes(form))) {
        throw new InvalidInputError(`body.${name}`, `accepts ${accepted.join(", ")}; got a ${forms.join(" or ")}`);
      }
    }
  }
}

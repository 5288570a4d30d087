/**
 * The optional client-side check of media input fields against the forms their x-media accepts.
 * generated/media-inputs.ts binds it to the description's routes as `checkMediaInputs`, an entry
 * point of its own, so that a client without it does not ship it.
 */
import { InvalidInputError } from "./errors.ts";
import type { InputForm } from "./route-table.ts";

/** Per create path, the media input fields that accept only some input forms, and those forms. */
export type MediaInputs = Readonly<Record<string, Readonly<Record<string, readonly InputForm[]>>>>;

/** What the client calls before sending a create: throws InvalidInputError when the body is not one to send. */
export type MediaInputCheck = (path: string, body: unknown) => void;

/**
 * The input forms a media string may be: a URL may be a public URL or an uploaded-file URL, which
 * look alike. A URL is known by its scheme and colon, as the description's MediaUrl knows it (which
 * schemes a public URL may use is not shown, so any is one); raw base64 never holds a colon.
 */
export function inputFormsOf(value: string): InputForm[] {
  if (/^data:/i.test(value)) return ["data-uri"];
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return ["public-url", "uploaded-file-url"];
  return ["raw-base64"];
}

export const mediaInputCheck =
  (inputs: MediaInputs): MediaInputCheck =>
  (path, body) => {
    if (typeof body !== "object" || body === null) throw new InvalidInputError("body", "must be a JSON object");
    for (const [field, accepted] of Object.entries(inputs[path] ?? {})) {
      const value = (body as Record<string, unknown>)[field];
      const list = Array.isArray(value);
      for (const [index, item] of (list ? value : value === undefined ? [] : [value]).entries()) {
        const name = `body.${field}${list ? `[${index}]` : ""}`;
        if (typeof item !== "string") throw new InvalidInputError(name, "must be a string");
        const forms = inputFormsOf(item);
        if (!forms.some((form) => accepted.includes(form)))
          throw new InvalidInputError(name, `accepts ${accepted.join(", ")}; got a ${forms.join(" or ")}`);
      }
    }
  };

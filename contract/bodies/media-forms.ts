/**
 * The input forms of media fields (`x-media.forms`: public URL, data URI, raw base64, uploaded-file
 * URL): which form a value is, whether a body holds one its field does not take, and an inline value
 * of a media kind to send where only URLs are taken. A field taking URLs only also says so in
 * standard keywords (its schema refers to `MediaUrl`, whose pattern refuses inline media); the
 * extension is what these readers and the client's check read. Fields whose forms the
 * specification does not state take any.
 */
import type { JsonSchema } from "../../model/document.ts";
import { inputFormsOf } from "../../runtime/client/media-inputs.ts";
import type { InputForm } from "../../runtime/client/route-table.ts";
import { isObject } from "./edits.ts";

/** What a media field's `x-media` says of its forms. */
export interface MediaForms {
  readonly kind: string;
  /** The forms taken, or undefined where the specification does not state them. */
  readonly forms?: readonly InputForm[];
  readonly formats?: readonly string[];
}

/** The inline forms: the media itself in the body rather than a URL to it. */
export const INLINE_FORMS = ["data-uri", "raw-base64"] as const satisfies readonly InputForm[];
export type InlineForm = (typeof INLINE_FORMS)[number];

/** The `x-media` of a request property, or undefined where it carries no media. */
export function mediaFormsOf(property: unknown): MediaForms | undefined {
  const media = isObject(property) ? property["x-media"] : undefined;
  return isObject(media) && typeof media.kind === "string" ? (media as unknown as MediaForms) : undefined;
}

/** Why `body` holds a media value in a form its field does not take (`video takes public-url or ...`), or null. */
export function mediaFormProblem(schema: JsonSchema | undefined, body: unknown): string | null {
  const properties = schema?.properties;
  if (!isObject(body) || !isObject(properties)) return null;
  for (const [field, property] of Object.entries(properties)) {
    const forms = mediaFormsOf(property)?.forms;
    const value = body[field];
    if (!forms || value === undefined) continue;
    const items = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
    const wrong = items.find((item) => !inputFormsOf(item).some((form) => forms.includes(form)));
    if (wrong !== undefined) return `${field}: takes ${forms.join(" or ")}, not a ${inputFormsOf(wrong).join(" or ")}`;
  }
  return null;
}

/** The first bytes of a file of each kind, base64: enough to be taken for one, not a whole file. */
const HEADERS: Record<string, { mime: string; base64: string }> = {
  // An MP4 `ftyp` box.
  video: { mime: "video/mp4", base64: "AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t" },
  // An MP3 ID3v2 tag header.
  audio: { mime: "audio/mpeg", base64: "SUQzBAAAAAAAAA==" },
  // A PNG signature.
  image: { mime: "image/png", base64: "iVBORw0KGgo=" },
};

/** A value of `media`'s kind inlined in `form`: `data:video/mp4;base64,...` or the bare base64. */
export function inlineMedia(media: MediaForms, form: InlineForm): string {
  // Stryker disable next-line StringLiteral: x-media's kind is image, video or audio (model/extensions.schema.json), each with its header
  const header = HEADERS[media.kind] ?? { mime: "application/octet-stream", base64: "AAAA" };
  return form === "data-uri" ? `data:${header.mime};base64,${header.base64}` : header.base64;
}

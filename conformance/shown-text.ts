/**
 * What the suite prints or writes of text that may hold a secret or come from the target. Every
 * key and credential the run holds (the declared keys, a `--target http://user:pass@...` URL's
 * credentials, their Basic form) is redacted from everything; text a target sent is escaped before
 * a terminal or a CI log shows it: line breaks, ANSI and OSC escapes and other control characters,
 * bidirectional overrides, and `::`, which opens a CI workflow command (`::error ...`).
 */

export const REDACTED = "[redacted]";

/** Secrets shorter than this are not searched for in free text: a one-letter key would blank every such letter. */
const SHORTEST = 4;

/**
 * The scheme and userinfo of a URL as the URL parser reads it: the userinfo runs to the authority's
 * last "@" (a password may hold a raw "@"), and a special scheme takes backslashes for slashes.
 */
const USERINFO = /^([a-z][a-z0-9+.-]*:[/\\]{2})([^/\\?#]*)@/i;

/**
 * The credentials of a target URL (`http://user:pass@host`) in every form a run may show them: as
 * given, decoded, percent-encoded as a URL object prints them, and in Basic form.
 */
export function urlCredentials(target: string | undefined): string[] {
  if (!target) return [];
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const forms = new Set<string>();
  const add = (user: string, password: string): void => {
    for (const [name, secret] of [
      [user, password],
      [decode(user), decode(password)],
    ] as const) {
      forms.add(`${name}:${secret}`).add(Buffer.from(`${name}:${secret}`).toString("base64"));
      if (secret) forms.add(secret);
    }
  };
  const given = USERINFO.exec(target)?.[2];
  if (given) {
    forms.add(given);
    const [user = "", password = ""] = given.split(/:(.*)/s);
    add(user, password);
  }
  if (URL.canParse(target)) {
    const { username, password } = new URL(target);
    if (username || password) add(username, password);
  }
  return [...forms];
}

/** Replaces each of `secrets` (longest first) in text by REDACTED. */
export function redactor(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const known = [
    ...new Set(secrets.filter((secret): secret is string => typeof secret === "string" && secret.length >= SHORTEST)),
  ].sort((a, b) => b.length - a.length);
  return (text) => known.reduce((shown, secret) => shown.split(secret).join(REDACTED), text);
}

/** A target URL with its credentials, if any, left out. */
export const withoutCredentials = (target: string): string => target.replace(USERINFO, `$1${REDACTED}@`);

const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text a target sent, made safe for one line of a terminal or a CI log. */
export function escapeForTerminal(text: string): string {
  return text
    .replace(CONTROL, (char) => {
      const code = char.charCodeAt(0);
      return char === "\n"
        ? "\\n"
        : char === "\r"
          ? "\\r"
          : code <= 0xff
            ? `\\x${code.toString(16).padStart(2, "0")}`
            : `\\u${code.toString(16).padStart(4, "0")}`;
    })
    .replace(/::/g, ":\\x3a");
}

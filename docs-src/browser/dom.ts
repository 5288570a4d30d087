/** A small element builder: the console is built with DOM calls, so no text is ever parsed as HTML. */
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

/** Pretty JSON, or the text as it is. */
export const showBody = (body: unknown): string => (typeof body === "string" ? body : JSON.stringify(body, null, 2));

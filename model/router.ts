/** Finds the operation of a request among the model's operations: exact paths first, then templates (`/v1/images/{id}`). */
import type { OperationModel } from "./types.ts";

export interface Match {
  readonly op: OperationModel;
  readonly params: Readonly<Record<string, string>>;
}

interface Template {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly op: OperationModel;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class Router {
  private readonly exact = new Map<string, OperationModel>();
  private readonly templates: Template[] = [];

  constructor(operations: readonly OperationModel[]) {
    for (const op of operations) {
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
      if (names.length === 0) {
        this.exact.set(`${op.method} ${op.path}`, op);
        continue;
      }
      const source = op.path
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join("([^/]+)");
      this.templates.push({ method: op.method, pattern: new RegExp(`^${source}$`), names, op });
    }
  }

  match(method: string, path: string): Match | undefined {
    const lower = method.toLowerCase();
    const op = this.exact.get(`${lower} ${path}`);
    if (op) return { op, params: {} };
    for (const template of this.templates) {
      if (template.method !== lower) continue;
      const found = template.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      template.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1]!);
      });
      return { op: template.op, params };
    }
    return undefined;
  }
}

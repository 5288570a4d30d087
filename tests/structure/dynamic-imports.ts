/**
 * The `import()` calls of a module, found in its syntax tree (so that a template or a comment that
 * spells one does not count).
 */
import ts from "typescript";

/** The line of each `import()` call in `source`. */
export function dynamicImportLines(source: string): number[] {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      lines.push(file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

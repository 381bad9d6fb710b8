#!/usr/bin/env node
// @ts-check
/**
 * Sizes that keep the code readable: no function in src/ longer than 80 lines (a function's body
 * that is one table of data, an object or array literal returned or passed on whole, is data, not
 * code), and no file longer than 400 lines. `npm run lint` runs this.
 * Usage: node scripts/check-size.mjs [root]   (root defaults to the repository)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 400;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** A body that is one literal table (`return { … }`, `=> [ … ]`): data, whatever its length. */
function isTable(body) {
  const literal = (node) =>
    node &&
    (ts.isObjectLiteralExpression(node) ||
      ts.isArrayLiteralExpression(node) ||
      (ts.isParenthesizedExpression(node) && literal(node.expression)));
  if (!ts.isBlock(body)) return literal(body);
  const statements = body.statements;
  return statements.length === 1 && ts.isReturnStatement(statements[0]) && literal(statements[0].expression);
}

function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText(source);
  return '(anonymous)';
}

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
for (const file of files(join(root, 'src'))) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const where = relative(root, file);
  const fileLines = source.getLineAndCharacterOfPosition(source.end).line + 1;
  if (fileLines > MAX_FILE_LINES) problems.push(`${where}: ${fileLines} lines (at most ${MAX_FILE_LINES})`);
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body && !isTable(node.body)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES)
        problems.push(
          `${where}:${start + 1}: ${nameOf(node, source)} is ${lines} lines (at most ${MAX_FUNCTION_LINES})`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (problems.length > 0) {
  console.error(`Sizes past their bounds (scripts/check-size.mjs):\n${problems.join('\n')}`);
  process.exit(1);
}

import { transform } from "../../lib/esbuild.ts";
import type { FieldProblem } from "../../lib/errors.ts";

// `{{ … }}` in a step's string props (docs/writing-workflows.md): JavaScript evaluated in the step's isolate at
// run time, with `steps` and `process.env` in scope. Here they are only checked for syntax at
// save, so that a typo is a 400 naming the prop, not a failed run hours later; nothing of them
// runs on the host (esbuild parses, it doesn't evaluate).

const EXPRESSION = /\{\{([\s\S]*?)\}\}/g;

/** The expressions in a string, as written between the braces. */
export function expressionsIn(value: string): string[] {
  return [...value.matchAll(EXPRESSION)].map((m) => m[1]);
}

/** `secret`: the props whose values are secrets, never expressions (nor echoed in a message). */
export async function expressionProblems(props: Record<string, unknown>, at: string, secret: ReadonlySet<string>): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(props)) {
    if (typeof value !== "string" || secret.has(name)) continue;
    for (const expr of expressionsIn(value)) {
      if (expr.trim() === "") {
        problems.push({ field: `${at}.${name}`, message: "has an empty {{ }} expression" });
        continue;
      }
      try {
        // parenthesized: one expression, not statements (a `;` or a `}` that closes early fails)
        await transform(`(${expr}\n);`, { loader: "js", logLevel: "silent" });
      } catch (e) {
        const text = (e as { errors?: Array<{ text: string }> }).errors?.[0]?.text ?? (e as Error).message;
        problems.push({ field: `${at}.${name}`, message: `{{${expr}}} is not a JavaScript expression: ${text}` });
      }
    }
  }
  return problems;
}

import { resolve, sep } from "node:path";
import { SANDBOX_DIR } from "./sandbox-dir.ts";

// Errors shown to tenants (a run's error, its stack, $errors) say nothing of where the service is
// installed: an error thrown by the runner's own code on a component's behalf (a data store
// write past the run's output cap, a bad argument to a provided module) carries the runner's
// frames, and they named the install path (`/srv/…/node_modules/.cache/tributary-runner/
// runner-<hash>.cjs:2014:13`). The runner's bundle is called `tributary-runner`, anything else
// under the install folder `tributary/…`. docs/security.md lists this among what a tenant sees.

/** the folder the service is installed in (this file is src/runtime/sandbox/ in it) */
export const INSTALL_ROOT = resolve(SANDBOX_DIR, "..", "..", "..");

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const root = escaped(INSTALL_ROOT);
const slash = escaped(sep);
// the runner's bundle, with its line and column: one neutral name
const RUNNER_BUNDLE = new RegExp(`(?:file://)?${root}${slash}node_modules${slash}\\.cache${slash}tributary-runner${slash}[^\\s:)]+(?::\\d+){0,2}`, "g");
// any other file under the install folder, kept relative to it
const UNDER_ROOT = new RegExp(`(?:file://)?${root}(?=${slash})`, "g");

/** `text` (an error's message or stack) with no path of this installation in it. */
export function withoutHostPaths(text: string): string {
  if (!text.includes(INSTALL_ROOT)) return text;
  return text.replace(RUNNER_BUNDLE, "tributary-runner").replace(UNDER_ROOT, "tributary");
}

import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Code that runs inside the sandbox sees the sandbox's globals (isolate/runtime.js), not Node's.
const sandboxGlobals = Object.fromEntries(
  ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask", "URL", "URLSearchParams", "AbortController", "TextEncoder", "TextDecoder", "console"].map((g) => [g, "readonly"]),
);

const ESBUILD = { name: "esbuild", message: "import src/lib/esbuild.ts: it starts esbuild with an empty environment", allowTypeImports: true };

/** each layer of src/ and what it may not import (the layers above it, and the wiring) */
const LAYERS = {
  lib: ["core", "http", "runtime", "store", "bus", "cli", "client", "dashboard"],
  store: ["core", "http", "runtime", "bus", "cli", "client", "dashboard"],
  bus: ["core", "http", "runtime", "store", "cli", "client", "dashboard"],
  runtime: ["core", "http", "store", "bus", "cli", "client", "dashboard"],
  core: ["http", "cli", "client", "dashboard"],
  http: ["cli", "client"],
  client: ["core", "http", "runtime", "store", "bus", "cli", "dashboard", "lib"],
  dashboard: ["core", "http", "runtime", "store", "bus", "cli"],
  cli: ["core", "http", "runtime", "store", "bus", "dashboard"],
};
/** the wiring, which no layer imports but cli/ (its `serve` command starts the service) */
const WIRING = ["app.ts", "main.ts"];

/** `layer`'s import rule: the layers above it (a relative path up into one of them), and `paths` */
function layerRule(layer, paths) {
  const above = [...LAYERS[layer], ...(layer === "cli" ? [] : WIRING)].map((l) => l.replace(".", "\\."));
  const message = `${layer}/ imports only the layers below it (docs/architecture.md)`;
  return ["error", { paths, patterns: [{ regex: `^(\\.\\./)+(${above.join("|")})(/|$)`, message }] }];
}

function layerRules() {
  return [
    ...Object.keys(LAYERS).map((layer) => ({
      files: [`src/${layer}/**/*.ts`, `src/${layer}/**/*.tsx`],
      ignores: ["src/lib/esbuild.ts", "src/**/*.test.ts"],
      rules: { "no-restricted-imports": layerRule(layer, [ESBUILD]) },
    })),
    { files: ["src/lib/esbuild.ts"], rules: { "no-restricted-imports": layerRule("lib", []) } },
    { files: ["src/*.ts", "src/**/*.test.ts"], rules: { "no-restricted-imports": ["error", { paths: [ESBUILD] }] } },
  ];
}

export default tseslint.config(
  { ignores: ["node_modules/", "data/", ".tmp/", "src/runtime/sandbox/provided/*.js", "src/registry/*.js", "src/client/schema.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  // esbuild inherits the service's environment unless started through src/lib/esbuild.ts, and
  // imports point down the layers only (docs/architecture.md): one rule, so both restrictions hold
  ...layerRules(),
  { files: ["src/runtime/sandbox/node/*.js"], languageOptions: { globals: sandboxGlobals } },
  { files: ["src/runtime/sandbox/node/forbidden.cjs"], languageOptions: { sourceType: "commonjs", globals: { module: "writable" } } },
  // the fs, stream and util stand-ins (CommonJS, as packages require them) run in the isolate: their globals are the isolate's
  {
    files: ["src/runtime/sandbox/node/fs.cjs", "src/runtime/sandbox/node/fs/*.cjs", "src/runtime/sandbox/node/fs-promises.cjs", "src/runtime/sandbox/node/stream.cjs", "src/runtime/sandbox/node/util.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly", URL: "readonly", queueMicrotask: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);

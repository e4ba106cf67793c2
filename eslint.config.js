import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Code that runs inside the sandbox sees the sandbox's globals (isolate/runtime.js), not Node's.
const sandboxGlobals = Object.fromEntries(
  ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask", "URL", "URLSearchParams", "AbortController", "TextEncoder", "TextDecoder", "console"].map((g) => [g, "readonly"]),
);

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
  // esbuild inherits the service's environment unless started through src/lib/esbuild.ts
  {
    files: ["src/**/*.ts"],
    ignores: ["src/lib/esbuild.ts"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "esbuild", message: "import src/lib/esbuild.ts: it starts esbuild with an empty environment", allowTypeImports: true }] }] },
  },
  { files: ["src/runtime/sandbox/node/*.js"], languageOptions: { globals: sandboxGlobals } },
  { files: ["src/runtime/sandbox/node/forbidden.cjs"], languageOptions: { sourceType: "commonjs", globals: { module: "writable" } } },
  // the fs stand-in (CommonJS, as packages require it) runs in the isolate: its globals are the isolate's
  {
    files: ["src/runtime/sandbox/node/fs.cjs", "src/runtime/sandbox/node/fs-promises.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly", URL: "readonly", queueMicrotask: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);

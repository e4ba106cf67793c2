// Where the runner's sandbox files are (isolate/, provided/). The runner may run as one bundled
// file elsewhere (runner-entry.ts), which sets this module's import.meta.dirname to this folder.
export const SANDBOX_DIR = import.meta.dirname;

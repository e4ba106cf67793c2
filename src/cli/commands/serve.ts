import { join } from "node:path";

// `tributary serve`: the service as `npm start` runs it, in this process.
export async function serve(args: string[]): Promise<void> {
  process.argv = [process.argv[0]!, join(import.meta.dirname, "..", "..", "main.ts"), ...args];
  await import("../../main.ts");
}

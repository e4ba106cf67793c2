import { benchApi } from "./api.ts";

// `npm run bench [-- --seconds=N] [-- only=api]`: every figure beside a bare node:http server
// measured in the same run, so the ratios survive a noisy machine.
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const seconds = Number(arg("seconds") ?? 10);

await benchApi(seconds);

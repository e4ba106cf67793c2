import { resolveConfig } from "./config.ts";
import { buildApp } from "./app.ts";
import { freePort } from "./lib/net/free-port.ts";

// Starts the service: config → buildApp → listen; SIGTERM/SIGINT stop taking requests, finish
// the ones in flight, close the store and exit 0.
async function main(): Promise<void> {
  let config = resolveConfig(process.env, process.argv.slice(2));
  // --port=0: the port is picked before the app is built, since the public URL it derives from
  // the port is in what the app gives out (endpoint URLs, the links of $.flow, OAuth redirects)
  if (config.port === 0 && !process.env.TRIBUTARY_PUBLIC_URL) {
    const port = await freePort(config.host);
    config = { ...config, port, publicUrl: config.publicUrl.replace(/:0$/, `:${port}`) };
  }
  const app = await buildApp(config);
  const log = app.http.log;
  if (app.createdAdminKey) {
    process.stdout.write(
      `\nCreated the admin user. Its API key, shown only this once:\n\n  ${app.createdAdminKey}\n\n` +
        `Try: curl -H "Authorization: Bearer ${app.createdAdminKey}" ${config.publicUrl}/v1/users/me\n\n`,
    );
  }
  await app.http.listen({ port: config.port, host: config.host });
  log.info({ store: config.store, dataDir: config.dataDir, publicUrl: config.publicUrl }, "tributary is running");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      log.error("shutdown took over 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  process.stderr.write(`tributary failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

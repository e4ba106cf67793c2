import { resolveConfig } from "./config.ts";
import { buildApp } from "./app.ts";

// Starts the service: config → buildApp → listen; SIGTERM/SIGINT stop taking requests, finish
// the ones in flight, close the store and exit 0.
async function main(): Promise<void> {
  const config = resolveConfig(process.env, process.argv.slice(2));
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

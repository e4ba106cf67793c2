#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
import { CliError, fail } from "./output.ts";

// The `tributary` CLI. Commands load their modules lazily so that a quick one stays quick.

// run through the launcher on an older node: end with it, even when it is killed outright
const launcher = Number(process.env.TRIBUTARY_LAUNCHER_PID);
delete process.env.TRIBUTARY_LAUNCHER_PID;
if (launcher) {
  setInterval(() => {
    if (process.ppid !== launcher) process.kill(process.pid, "SIGTERM");
  }, 250).unref();
}

const program = new Command("tributary")
  .description("Tributary: deploy event sources and workflows, read and tail their events and runs")
  .version(createRequire(import.meta.url)("../../package.json").version as string, "-V, --version", "print the CLI's version")
  .showHelpAfterError()
  .exitOverride();

const collect = (v: string, prev: string[] = []) => [...prev, v];
const json = ["--json", "machine output (JSON) on stdout"] as const;

program.command("login").description("save the service URL and API key in the profile (verified)").option("--url <url>", "service root, e.g. http://127.0.0.1:3000").option("--key <key>", "API key (trb_...)").option(...json)
  .action(async (o) => (await import("./commands/login.ts")).login(o));
program.command("serve").description("run the service (as npm start)").allowUnknownOption().allowExcessArguments()
  .action(async (_o, cmd: Command) => (await import("./commands/serve.ts")).serve(cmd.args));
program.command("deploy <file>").description("bundle a component file and deploy it as a source").option("--name <name>").option("--prop <k=v>", "a prop (value parsed as JSON if it parses); repeatable", collect).option(...json)
  .action(async (file, o) => void (await (await import("./commands/deploy.ts")).deploy(file, o)));
program.command("update <id> <file>").description("bundle a component file and redeploy source ID with it").option("--prop <k=v>", "a prop; repeatable", collect).option(...json)
  .action(async (id, file, o) => void (await (await import("./commands/deploy.ts")).update(id, file, o)));
program.command("list <kind>").description("list sources|workflows|subscriptions|webhooks|components|accounts|registry").option(...json)
  .action(async (kind, o) => (await import("./commands/list.ts")).list(kind, o));
program.command("events <id>").description("events of a source or workflow").option("-f, --follow", "tail live").option("--stream <name>", "another stream: $errors, $logs, a custom name").option("--limit <n>").option(...json)
  .action(async (id, o) => (await import("./commands/events.ts")).events(id, o));
program.command("logs <id>").description("the $logs stream of a source or workflow").option("-f, --follow", "tail live").option("--limit <n>").option(...json)
  .action(async (id, o) => (await import("./commands/events.ts")).logs(id, o));
program.command("run <id> [run]").description("run a source or workflow now; `run show r_...`: one run of a workflow, step by step")
  .option("--event <json>", "the event, handed over as it is (steps.trigger.event)")
  .option("--body <json>", "an HTTP workflow: the request's body (steps.trigger.event.body)").option("--header <name: value>", "an HTTP workflow: a request header; repeatable", collect)
  .option("--method <verb>", "an HTTP workflow: the request's method (default POST)").option(...json)
  .action(async (id, runId, o) => {
    if (id === "show") {
      if (!runId) throw new CliError("run show needs a run id", "`tributary runs p_...` lists a workflow's runs");
      return (await import("./commands/runs.ts")).showRun(runId, o);
    }
    return (await import("./commands/run-now.ts")).run(id, o);
  });
program.command("runs <workflow>").description("a workflow's runs, newest first").option("-f, --follow", "print runs as they start and end").option("--status <status>", "only running, suspended, succeeded, failed, exited or cancelled runs").option("--limit <n>").option(...json)
  .action(async (id, o) => (await import("./commands/runs.ts")).runs(id, o));
program.command("retry <run>").description("run a failed workflow run again from one of its steps (the one that failed), its earlier steps' results kept")
  .option("--from <step>", "the step to run again from, by name").option("--original", "run the deployment the run ran, not the current one").option(...json)
  .action(async (id, o) => (await import("./commands/runs.ts")).retry(id, o));
program.command("replay <run>").description("run a workflow run's trigger event again, as a new run (of the workflow's current deployment); or, given a workflow (p_...) and --failed, its failed runs")
  .option("--original", "run the deployment the run ran, not the current one")
  .option("--failed", "with a workflow: replay its failed runs").option("--since <ago>", "with --failed: started since (90s, 30m, 1h, 2d ago)")
  .option("--until <ago>", "with --failed: started until (a duration ago)").option("--limit <n>", "with --failed: at most this many, newest first").option(...json)
  .action(async (id, o) => (id.startsWith("p_") ? (await import("./commands/bulk-replay.ts")).bulkReplay(id, o) : (await import("./commands/runs.ts")).replay(id, o)));
program.command("resume <run>").description("a suspended workflow run goes on now, as its resume URL would").option("--data <json>", "what its step reads as $resume_data.body (a rerun: $.context.run.callback_request.body)").option(...json)
  .action(async (id, o) => (await import("./commands/runs.ts")).resume(id, o));
program.command("cancel <run>").description("cancel a running or waiting workflow run").option(...json)
  .action(async (id, o) => (await import("./commands/runs.ts")).cancel(id, o));
program.command("delete <id>").description("delete a source (dc_), workflow (p_), webhook (wh_) or account (apn_)").option(...json)
  .action(async (id, o) => (await import("./commands/misc.ts")).remove(id, o));
program.command("subscribe <emitter> <listener>").description("route EMITTER's events to LISTENER").option("--stream <name>").option(...json)
  .action(async (e, l, o) => (await import("./commands/misc.ts")).subscribe(e, l, o));
program.command("unsubscribe <emitter> <listener>").description("stop routing EMITTER's events to LISTENER").option("--stream <name>").option(...json)
  .action(async (e, l, o) => (await import("./commands/misc.ts")).unsubscribe(e, l, o));
program.command("dev <file>").description("deploy FILE, redeploy it on every save, print its events, logs and errors live (Ctrl-C deletes it)").option("--name <name>").option("--prop <k=v>", "a prop; repeatable", collect).option(...json)
  .action(async (file, o) => (await import("./commands/dev.ts")).dev(file, o));
const env = program.command("env").description("your environment variables: process.env in every run");
env.command("list").description("the variables (secret values are not shown)").option(...json)
  .action(async (o) => (await import("./commands/stores.ts")).envList(o));
env.command("set <name> <value>").description("set a variable").option("--secret", "keep its value out of every answer").option(...json)
  .action(async (n, v, o) => (await import("./commands/stores.ts")).envSet(n, v, o));
env.command("unset <name>").description("remove a variable").option(...json)
  .action(async (n, o) => (await import("./commands/stores.ts")).envUnset(n, o));
const datastores = program.command("datastores").description("your data stores (`datastores` alone lists them)").option(...json)
  .action(async (o) => (await import("./commands/stores.ts")).dataStores(o));
// --json given after a subcommand is taken by `datastores` itself (it has the option too)
datastores.command("list").description("your data stores").option(...json)
  .action(async (o) => (await import("./commands/stores.ts")).dataStores({ ...datastores.opts(), ...o }));
datastores.command("create <name>").description("create a data store and print its id").option(...json)
  .action(async (n, o) => (await import("./commands/stores.ts")).createDataStore(n, { ...datastores.opts(), ...o }));
program.command("records <store>").description("a data store's records, in key order").option("--prefix <p>", "only keys starting with P").option("--limit <n>").option(...json)
  .action(async (id, o) => (await import("./commands/stores.ts")).records(id, o));
const accounts = program.command("accounts").description("connected accounts: connect, reconnect, show, events-url (list them with `tributary list accounts`)");
accounts.command("connect <app>").description("connect an account with OAuth: prints the provider's page (and opens it on a terminal), waits until you authorized").option("--name <name>", "the account's name").option("--scope <scope>", "a scope to ask for instead of the app's; repeatable", collect).option("--no-open", "don't open a browser").option(...json)
  .action(async (app, o) => (await import("./commands/accounts.ts")).connect(app, o));
accounts.command("reconnect <account>").description("authorize an OAuth account again (new tokens, status ok)").option("--scope <scope>", "a scope to ask for; repeatable", collect).option("--no-open", "don't open a browser").option(...json)
  .action(async (id, o) => (await import("./commands/accounts.ts")).reconnect(id, o));
accounts.command("show <account>").description("an account: its app, status, auth's field names and events URL").option(...json)
  .action(async (id, o) => (await import("./commands/account-show.ts")).showAccount(id, o));
accounts.command("events-url <account>").description("the URL where the app sends the account's events (paste it at the app); --new replaces it").option("--new", "replace it with a new URL: the old one answers 404 from then on").option(...json)
  .action(async (id, o) => (await import("./commands/account-show.ts")).eventsUrl(id, o));
const users = program.command("users").description("user administration (admin key)");
users.command("create <username> <email>").description("create a user and print its API key").option(...json)
  .action(async (u, e, o) => (await import("./commands/misc.ts")).createUser(u, e, o));

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // help and version are not errors; usage errors have been printed by commander
    process.exit(err.exitCode === 0 || err.code === "commander.helpDisplayed" || err.code === "commander.help" ? 0 : 1);
  }
  fail(err);
}

import { createServer } from "node:http";

// The I/O yardstick: a bare node:http server doing a run's work with nothing else, no sandbox
// and nothing durable. POST {"n", "url"}: 3 fetches of `url`, each awaited before the next (as
// the workflow's 3 steps and Restate's 3 ctx.run calls make them), then {"value": n + 3}. On the
// same machine and load generator, it says how near the physical limit plain Node gets.
const server = createServer((req, res) => {
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (text += chunk));
  req.on("end", () => {
    void (async () => {
      try {
        const input = JSON.parse(text) as { n: number; url: string };
        let value = input.n;
        for (let i = 0; i < 3; i++) {
          const r = await fetch(input.url);
          await r.text();
          value += 1;
        }
        const body = JSON.stringify({ value });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      } catch (e) {
        res.writeHead(500).end(String(e));
      }
    })();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === "object" && addr ? addr.port : ""}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));

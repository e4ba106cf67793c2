import { createServer } from "node:http";

// The yardstick: a bare node:http server answering a small JSON body, like /users/me does.
const body = JSON.stringify({ data: { id: "u_0000000000000000", username: "bench", ok: true } });
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === "object" && addr ? addr.port : ""}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));

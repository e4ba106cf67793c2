import { connect, type Socket } from "node:net";

// The paced sender's client: keep-alive HTTP/1.1 over plain sockets, one request at a time on
// each, requests beyond the sockets waiting in a queue. node:http's client costs the sender as
// much CPU per request as a bare server: at 15,000 requests/s on this 2-core machine it was the
// sender, not the server measured, that fell minutes behind (its Agent queue is an array shifted
// per request, and every answer builds a stream and a headers object). This parses only what the
// bench needs: the status and where the answer ends (Content-Length or chunked).

export interface Answer {
  status: number;
}

interface Job {
  head: Buffer;
  body: Buffer;
  resolve: (a: Answer) => void;
  reject: (e: Error) => void;
}

interface Conn {
  socket: Socket;
  job: Job | undefined;
  buf: Buffer;
  timer: NodeJS.Timeout | undefined;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const CHUNKED_END = Buffer.from("\r\n0\r\n\r\n");

export class RawHttpPool {
  readonly #host: string;
  readonly #port: number;
  readonly #max: number;
  readonly #timeoutMs: number;
  readonly #idle: Conn[] = [];
  #open = 0;
  /** waiting jobs: an array read from `#head`, so taking one is O(1) */
  #queue: Job[] = [];
  #head = 0;
  #closed = false;

  constructor(url: string, maxSockets: number, timeoutMs: number) {
    const u = new URL(url);
    this.#host = u.hostname;
    this.#port = Number(u.port || 80);
    this.#max = maxSockets;
    this.#timeoutMs = timeoutMs;
  }

  post(path: string, body: string, contentType = "application/json"): Promise<Answer> {
    const b = Buffer.from(body);
    const head = Buffer.from(`POST ${path} HTTP/1.1\r\nHost: ${this.#host}:${this.#port}\r\nContent-Type: ${contentType}\r\nContent-Length: ${b.length}\r\n\r\n`);
    return new Promise((resolve, reject) => {
      const job: Job = { head, body: b, resolve, reject };
      const conn = this.#idle.pop();
      if (conn) return this.#start(conn, job);
      this.#queue.push(job);
      if (this.#open < this.#max) this.#connect();
    });
  }

  destroy(): void {
    this.#closed = true;
    for (const c of this.#idle) c.socket.destroy();
    this.#idle.length = 0;
  }

  #connect(): void {
    this.#open++;
    const socket = connect({ host: this.#host, port: this.#port, noDelay: true });
    const conn: Conn = { socket, job: undefined, buf: Buffer.alloc(0), timer: undefined };
    let connected = false;
    socket.on("connect", () => {
      connected = true;
      this.#next(conn);
    });
    socket.on("data", (d) => this.#data(conn, d));
    socket.on("error", () => {});
    socket.once("close", () => {
      this.#open--;
      clearTimeout(conn.timer);
      const i = this.#idle.indexOf(conn);
      if (i >= 0) this.#idle.splice(i, 1);
      // the request it carried fails; a socket that never connected fails one that waited
      const job = conn.job ?? (!connected && this.#head < this.#queue.length ? this.#queue[this.#head++] : undefined);
      conn.job = undefined;
      job?.reject(new Error("connection closed"));
      if (!this.#closed && this.#head < this.#queue.length && this.#open < this.#max) this.#connect();
    });
  }

  #start(conn: Conn, job: Job): void {
    conn.job = job;
    conn.buf = Buffer.alloc(0);
    conn.timer = setTimeout(() => conn.socket.destroy(new Error("timeout")), this.#timeoutMs);
    conn.socket.write(job.head);
    conn.socket.write(job.body);
  }

  #next(conn: Conn): void {
    if (this.#head < this.#queue.length) {
      const job = this.#queue[this.#head++];
      if (this.#head > 4096 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      return this.#start(conn, job);
    }
    if (this.#closed) return void conn.socket.destroy();
    this.#idle.push(conn);
  }

  #data(conn: Conn, d: Buffer): void {
    conn.buf = conn.buf.length === 0 ? d : Buffer.concat([conn.buf, d]);
    const job = conn.job;
    if (!job) return;
    const end = conn.buf.indexOf(HEADER_END);
    if (end < 0) return;
    const head = conn.buf.subarray(0, end).toString("latin1");
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const bodyStart = end + 4;
    let done: boolean;
    if (length) done = conn.buf.length - bodyStart >= Number(length[1]);
    else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) done = conn.buf.indexOf(CHUNKED_END, bodyStart - 2) >= 0;
    else done = true;
    if (!done) return;
    clearTimeout(conn.timer);
    conn.timer = undefined;
    conn.job = undefined;
    conn.buf = Buffer.alloc(0);
    const close = /\r\nconnection:\s*close/i.test(head);
    job.resolve({ status });
    if (close) conn.socket.destroy();
    else this.#next(conn);
  }
}

// node:tty for bundled packages (debug, supports-color...): nothing in the sandbox is a terminal.
export const isatty = () => false;
export class ReadStream {}
export class WriteStream {}
export default { isatty, ReadStream, WriteStream };

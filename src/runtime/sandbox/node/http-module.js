// node:http for bundled components (see http.js)
import { httpModule } from "./http.js";
const m = httpModule("http:");
export const { request, get, Agent, globalAgent, ClientRequest, IncomingMessage, METHODS, STATUS_CODES, createServer } = m;
export const { Server, OutgoingMessage, ServerResponse, maxHeaderSize, validateHeaderName, validateHeaderValue } = m;
export default m;

// How the probe (scripts/pipedream-probe.ts) reads what became of a source.

export interface Outcome {
  /** reached: stopped at its first call to its app (the network is closed); ran: ran to its result; failed: anything else */
  kind: "reached" | "ran" | "failed";
  /** where: bundle, save, deploy (its deploy/activate hooks), trigger, run */
  phase: string;
  detail: string;
}

/** what a call out of a closed network ends with: a name that doesn't resolve, a refused connection */
const NETWORK = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|getaddrinfo|fetch failed|socket hang up/i;

/**
 * Errors components make of the network error they caught, by package: the call went out, and
 * its answer (none) is what they report. Each was checked by hand against the component's code.
 */
const HIDDEN: Record<string, RegExp> = {
  // shopify.app.mjs _withRetries: any error without a GraphQL error code (a call that got no
  // answer) becomes "Unexpected error (error code: undefined): {}", the network error dropped
  shopify: /Unexpected error \(error code: undefined\)/,
  // common.mjs _makeRequest: `throw new Error(e.response.data.message)`, and a call that got no answer has no response
  docusign: /Cannot read properties of undefined \(reading 'data'\)/,
  // ramp.app.mjs: `throw new Error(JSON.parse(e.message).error_v2.message)`: the network error's message isn't JSON
  ramp: /Unexpected token .*"getaddrinf"\.\.\. is not valid JSON/,
};

/**
 * Clients that retry an unreachable API past the invocation's 30 s, so the hook or run ends in a
 * timeout instead of the network error (with the API reachable they answer at once).
 */
const RETRYING = ['"@slack/web-api"', '"apify-client"'];

/**
 * An error in `phase` of a component of `pkg` (`code`: its bundle, or its package.json): a network error is the first
 * outbound call reached. So is another error when the run's console shows the network error, one
 * of HIDDEN, and a timeout of a RETRYING client.
 */
export function classify(pkg: string, code: string, phase: string, message: string, logs: string[]): Outcome {
  const detail = message.replace(/\s+/g, " ").trim();
  if (NETWORK.test(message)) return { kind: "reached", phase, detail };
  const logged = logs.find((l) => NETWORK.test(l));
  if (logged) return { kind: "reached", phase, detail: `${detail} (its console: ${logged.slice(0, 120)})` };
  if (HIDDEN[pkg]?.test(message)) return { kind: "reached", phase, detail: `${detail} (the network error, as the component reports it)` };
  if (/TimeoutError|did not answer within/.test(message) && RETRYING.some((name) => code.includes(name))) return { kind: "reached", phase, detail: `${detail} (its client retries the unreachable API)` };
  return { kind: "failed", phase, detail };
}

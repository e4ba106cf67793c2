import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { SESSION_COOKIE } from "../../core/dashboard-sessions.ts";

// Where providers send the browser back after the user authorized (or refused) a connection:
// {TRIBUTARY_PUBLIC_URL}/oauth/callback. No API key: the flow's state is what authorizes. The
// answer is a small page in plain words, built from escaped text only and allowed nothing active.

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, message: string, ok: boolean): string {
  const color = ok ? "#2b8a3e" : "#c92a2a";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Tributary</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#212529}h1{color:${color};font-size:1.5rem}a{color:#1971c2}</style>
</head><body><h1>${escape(title)}</h1><p id="message">${escape(message)}</p><p><a href="/#/accounts">Your accounts</a></p></body></html>`;
}

/** The dashboard user signed in on this browser, if its cookie came along (same-site redirects only). */
async function signedIn(req: FastifyRequest): Promise<string | undefined> {
  const sessions = req.server.dashboardSessions;
  const cookies = req.headers.cookie;
  if (!sessions || !cookies) return undefined;
  const token = req.server.parseCookie(cookies)[SESSION_COOKIE];
  return token ? (await sessions.user(token))?.user.id : undefined;
}

export function oauthCallbackRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    app.get("/oauth/callback", { schema: { hide: true } }, async (req, reply) => {
      const outcome = await core.oauthConnect.callback((req.query ?? {}) as Record<string, unknown>, await signedIn(req));
      return reply
        .code(outcome.status)
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        .header("referrer-policy", "no-referrer")
        .send(page(outcome.title, outcome.message, outcome.ok));
    });
  };
}

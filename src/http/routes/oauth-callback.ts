import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { Core } from "../../core/core.ts";
import { SESSION_COOKIE } from "../../core/dashboard-sessions.ts";
import type { CallbackOutcome, CallbackQuestion } from "../../core/accounts/oauth-connect.ts";

// Where providers send the browser back after the user authorized (or refused) a connection:
// {TRIBUTARY_PUBLIC_URL}/oauth/callback. No API key: the flow's state is what authorizes. GET
// asks to whom the account goes; the answer is a same-origin form POST that connects it. Pages
// are built from escaped text only, and allowed nothing active but posting back here.

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const FORM_LIMIT = 16 * 1024;

function page(title: string, body: string, color: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Tributary</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#212529}h1{color:${color};font-size:1.5rem}a{color:#1971c2}button{font:inherit;padding:.4rem 1rem;margin-right:.5rem;border-radius:4px;border:1px solid #adb5bd;background:#fff;cursor:pointer}button[value=connect]{background:#228be6;border-color:#228be6;color:#fff}</style>
</head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

function outcomePage(o: CallbackOutcome): string {
  return page(o.title, `<p id="message">${escape(o.message)}</p><p><a href="/#/accounts">Your accounts</a></p>`, o.ok ? "#2b8a3e" : "#c92a2a");
}

function questionPage(q: CallbackQuestion): string {
  const hidden = Object.entries(q.params)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join("");
  const body =
    `<p id="message">Connect this ${escape(q.app)} account to the Tributary user <strong>${escape(q.username)}</strong>? ` +
    `Their sources and workflows will be able to act as you in ${escape(q.app)}. If you didn't start this connection yourself, choose Cancel.</p>` +
    `<form method="post" action="/oauth/callback">${hidden}<button type="submit" name="decision" value="connect">Connect</button>` +
    `<button type="submit" name="decision" value="cancel">Cancel</button></form>`;
  return page(`Connect ${q.app}?`, body, "#212529");
}

/** The dashboard user signed in on this browser, if its cookie came along (same-site requests only). */
async function signedIn(req: FastifyRequest): Promise<string | undefined> {
  const sessions = req.server.dashboardSessions;
  const cookies = req.headers.cookie;
  if (!sessions || !cookies) return undefined;
  const token = req.server.parseCookie(cookies)[SESSION_COOKIE];
  return token ? (await sessions.user(token))?.user.id : undefined;
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
    .header("referrer-policy", "no-referrer")
    .send(html);
}

export function oauthCallbackRoutes(core: Core): FastifyPluginAsync {
  return async (app) => {
    app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: FORM_LIMIT }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    app.get("/oauth/callback", { schema: { hide: true } }, async (req, reply) => {
      const answer = await core.oauthConnect.question((req.query ?? {}) as Record<string, unknown>);
      return "params" in answer ? send(reply, 200, questionPage(answer)) : send(reply, answer.status, outcomePage(answer));
    });
    app.post("/oauth/callback", { schema: { hide: true }, bodyLimit: FORM_LIMIT }, async (req, reply) => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const outcome = await core.oauthConnect.callback(form, await signedIn(req), form.decision === "connect");
      return send(reply, outcome.status, outcomePage(outcome));
    });
  };
}

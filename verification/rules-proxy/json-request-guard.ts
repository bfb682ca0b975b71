import type { MiddlewareHandler } from 'hono';
import { sameOriginOnly } from '../../shared/http/cross-site';
import { jsonContentType } from '../../shared/http/json-content-type';
import { guardedBy } from '../../shared/http/request-guard';

// What the rules proxy (on the paths it relays) and the kit's state endpoint take: JSON from a
// verifier, never a browser form from another site. A cross-site <form enctype=text/plain> needs
// no CORS preflight, so without this any page could make the proxy call the seller and show what
// came back. Pact verifiers (the Rust core, pact-jvm) send `Content-Type: application/json`, no
// Origin and no Sec-Fetch-* headers, so they pass. The rules are the ones every JSON surface of the
// toolkit applies (shared/http); only the error body is the kit's own.

/** `who` opens each refusal's message, e.g. 'rules proxy'. */
export function refuseCrossSiteAndNonJson(who: string): MiddlewareHandler {
  return guardedBy([sameOriginOnly({ methods: 'all' }), jsonContentType], ({ status, rule, field, message }, c) =>
    c.json({ message: `${who}: ${message}`, path: field, rule }, status),
  );
}

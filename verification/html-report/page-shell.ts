import { markup, markupText, trustedMarkup, type Markup } from './html-text';
import { identityEntries, type RunIdentity } from '../reports/run-identity';

// The page every HTML report shares: one self-contained file (opened from a CI artifact via
// file://), no script, no fetch. The CSP forbids everything but inline styles and data:
// images, so even a seller's payload that escaped escaping could neither run nor phone home.

export const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
:root { --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9; --dim: #6e7781; --line: #d0d7de; --mark: #ffd8b5; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0; padding: 24px 32px; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
.meta { color: var(--dim); margin: 0 0 12px; }
.verdict { display: inline-block; font-weight: 600; padding: 6px 12px; border-radius: 6px; margin: 8px 0; }
.verdict.pass { background: var(--pass-bg); color: var(--pass); }
.verdict.fail { background: var(--fail-bg); color: var(--fail); }
.badge { display: inline-block; padding: 1px 7px; border-radius: 10px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.badge.pass { background: var(--pass-bg); color: var(--pass); }
.badge.fail { background: var(--fail-bg); color: var(--fail); }
.badge.dim { background: #eaeef2; color: var(--dim); }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; overflow: auto; margin: 4px 0; white-space: pre-wrap; word-break: break-all; }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.side-by-side > div { min-width: 0; }
mark.broken { background: var(--mark); outline: 2px solid var(--fail); border-radius: 2px; color: inherit; }
details { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
details > summary { cursor: pointer; font-weight: 600; }
.finding { margin: 6px 0; padding: 6px 10px; border-left: 3px solid var(--fail); background: #fffafa; }
.finding .where { color: var(--dim); }
.note { color: var(--dim); font-size: 13px; }
figure { margin: 8px 0 16px; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg text { font: 11px system-ui, sans-serif; fill: #1f2328; }
`;

export interface PageParts {
  title: string;
  /** The report's kind, on <body data-report>: for tests and scripts that read the page. */
  kind: 'verification' | 'exploration' | 'load' | 'compat';
  body: Markup;
}

export function htmlPage(parts: PageParts): string {
  const page = markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${parts.title}</title>
<style>${trustedMarkup(STYLE)}</style>
</head>
<body data-report="${parts.kind}">
${parts.body}
</body>
</html>
`;
  return markupText(page);
}

/** PASSED/FAILED as a coloured block. */
export const verdictBlock = (ok: boolean, text: string): Markup =>
  markup`<p class="verdict ${ok ? 'pass' : 'fail'}" data-testid="verdict">${text}</p>`;

export const badge = (kind: 'pass' | 'fail' | 'dim', text: string): Markup =>
  markup`<span class="badge ${kind}">${text}</span>`;

/** What the run judged, under the page's title: versions, the pacts' digests (whole), the seller, when, how long. */
export const runIdentityBlock = (run: RunIdentity | undefined): Markup | string =>
  run === undefined
    ? ''
    : markup`<table data-testid="run-identity" class="meta">${identityEntries(run, false).map(
        ([label, value]) => markup`<tr><th>${label}</th><td>${value}</td></tr>`,
      )}</table>`;

// The inspector page's style sheet, inlined and allowed by its hash (page-security.ts).

export const INSPECTOR_STYLE = `
:root { --ok: #1a7f37; --broken: #b42318; --error: #9a6700; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1f2328; }
header { display: flex; gap: 1rem; align-items: baseline; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: #f6f8fa; }
h1 { font-size: 1.15rem; margin: 0; } h2 { font-size: 1.05rem; margin: .2rem 0; } h3 { font-size: .95rem; margin: .6rem 0 .3rem; }
#status { color: var(--muted); } #status.live { color: var(--ok); }
#filters { display: flex; gap: 1rem; padding: .5rem 1rem; flex-wrap: wrap; }
#list { max-height: 40vh; overflow: auto; border-bottom: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid #eaeef2; white-space: nowrap; }
th { position: sticky; top: 0; background: #fff; }
tbody tr { cursor: pointer; } tbody tr:hover, tbody tr:focus { background: #eef6ff; outline: none; } tbody tr.selected { background: #ddf4ff; }
.verdict { font-weight: 600; } .verdict-ok { color: var(--ok); } .verdict-broken { color: var(--broken); } .verdict-error { color: var(--error); }
.muted { color: var(--muted); }
#detail { padding: .5rem 1rem 2rem; }
#violations { list-style: none; padding: 0; margin: 0; }
#violations li { border-left: 4px solid var(--broken); background: #fff5f5; padding: .35rem .6rem; margin: .3rem 0; }
.near-miss { display: grid; grid-template-columns: auto 1fr; gap: .1rem .6rem; margin-top: .25rem; font-family: ui-monospace, monospace; font-size: 13px; }
.expected { color: var(--ok); } .found { color: var(--broken); }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
pre.json { margin: 0; padding: .4rem; background: #f6f8fa; border: 1px solid var(--line); max-height: 60vh; overflow: auto; font: 12.5px/1.45 ui-monospace, monospace; }
.json-line { white-space: pre; }
.json-line.broken { background: #ffebe9; }
.annotation { white-space: pre-wrap; color: var(--broken); font-weight: 600; background: #fff5f5; border-left: 3px solid var(--broken); padding-left: .4rem; }
`;

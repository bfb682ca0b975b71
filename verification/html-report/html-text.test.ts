import { describe, expect, it } from 'vitest';
import { escapeHtml, markup, markupText, trustedMarkup } from './html-text';
import { jsonView, nearestPresent } from './json-view';
import { CONTENT_SECURITY_POLICY, htmlPage } from './page-shell';

describe('markup', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const value = `<script>alert("x")</script>' & "`;
    expect(markupText(markup`<p title="${value}">${value}</p>`)).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; &quot;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp; &quot;</p>',
    );
  });

  it('keeps markup made by markup as it is, joins arrays, prints booleans, and drops null and undefined', () => {
    const items = ['<a>', 'b'].map((t) => markup`<li>${t}</li>`);
    expect(markupText(markup`<ul>${items}${null}${undefined}${false}${0}</ul>`)).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li>false0</ul>',
    );
    expect(markupText(trustedMarkup('<br>'))).toBe('<br>');
    // A string that merely looks like markup is still text.
    expect(markupText(markup`${'<br>'}`)).toBe('&lt;br&gt;');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});

describe('the page shell', () => {
  it('carries the strict CSP and loads nothing', () => {
    const page = htmlPage({ title: '<t>', kind: 'load', body: markup`<p>x</p>` });
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY.replace(/'/g, '&#39;')}">`,
    );
    expect(CONTENT_SECURITY_POLICY).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(page).toContain('<title>&lt;t&gt;</title>');
    expect(page).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });
});

describe('jsonView', () => {
  const reply = {
    items: [
      { id: 'a', original_part: 'X' },
      { id: 'b/c', original_part: 'Y' },
    ],
  };

  it('marks the part a pointer names, with the finding on hover', () => {
    const out = markupText(
      jsonView(reply, [{ path: '/items/1/original_part', label: 'alternate.original-part: differs' }]),
    );
    expect(out).toContain(
      '<mark class="broken" data-path="/items/1/original_part" title="alternate.original-part: differs">&quot;original_part&quot;: &quot;Y&quot;</mark>',
    );
    expect(out.match(/<mark/g)).toHaveLength(1);
  });

  it('marks the nearest present part when the pointer names something absent, and the whole body for the root', () => {
    expect(nearestPresent(reply, '/items/5/id')).toBe('/items');
    expect(nearestPresent(reply, '/items/1/original_mfr')).toBe('/items/1');
    expect(nearestPresent(reply, '')).toBe('');
    expect(markupText(jsonView(reply, [{ path: '/items/1/original_mfr', label: 'missing' }]))).toContain(
      '<mark class="broken" data-path="/items/1"',
    );
    expect(markupText(jsonView(reply, [{ path: '/', label: 'not an object' }]))).toMatch(
      /^<pre class="json"><mark class="broken" data-path="\/"/,
    );
  });

  it('prints the JSON itself, escaped, so it reads back as the same value', () => {
    const value = { a: '<b>', n: [1, null, true], e: {}, l: [] };
    const text = markupText(jsonView(value))
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    expect(JSON.parse(text)).toEqual(value);
  });
});

// A shell command that sends the same request again: what a vendor pastes to see the failure
// for themselves. Single-quoted for POSIX shells; a ' inside becomes '\''.

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export interface CurlOptions {
  /** Default POST. */
  method?: string;
  /** Default application/json; null sends none (curl's own default is dropped too). */
  contentType?: string | null;
}

export function curlCommand(
  sellerUrl: string,
  body: string | undefined,
  headers: Record<string, string> = {},
  options: CurlOptions = {},
): string {
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  const parts = [
    'curl',
    '-sS',
    '-X',
    options.method ?? 'POST',
    quote(sellerUrl),
    '-H',
    quote(contentType === null ? 'content-type:' : `content-type: ${contentType}`),
  ];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}

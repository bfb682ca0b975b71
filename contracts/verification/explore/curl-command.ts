// A shell command that sends the same request again: what a vendor pastes to see the failure
// for themselves. Single-quoted for POSIX shells; a ' inside becomes '\''.

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlCommand(sellerUrl: string, body: string, headers: Record<string, string> = {}): string {
  const parts = ['curl', '-sS', '-X', 'POST', quote(sellerUrl), '-H', quote('content-type: application/json')];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', quote(`${name}: ${value}`));
  parts.push('--data-raw', quote(body));
  return parts.join(' ');
}

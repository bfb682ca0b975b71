// The member a forwarded request is for, read from the request itself: item inquiries name
// it on each location, orders on each item, invoices and statements at the top. Several
// members in one request (which the gateway never sends) are listed with commas.

export function memberOfRequest(request: unknown): string | null {
  if (request === null || typeof request !== 'object') return null;
  const r = request as { member?: unknown; locations?: { member?: unknown }[]; items?: { member_id?: unknown }[] };
  if (typeof r.member === 'string') return r.member;
  const named = Array.isArray(r.locations)
    ? r.locations.map((l) => l?.member)
    : Array.isArray(r.items)
      ? r.items.map((i) => i?.member_id)
      : [];
  const members = [...new Set(named.filter((m): m is string => typeof m === 'string'))];
  return members.length === 0 ? null : members.join(',');
}

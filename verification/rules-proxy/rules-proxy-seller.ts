import { request } from 'undici';
import { checkSellerReply, type ForwardedOperation, type ReplyCheck } from '../../contracts/reply-check';
import type { Exchange } from './proxied-exchange';
import { notJsonFinding, tooLargeFinding, type ReplyFinding } from '../reply-findings';
import { readReplyWithin, type LimitedReply } from '../reply-within-limit';
import { callFailureOf, type CallFailure } from '../call-failure';

// The rules proxy's side facing the seller: a request as it arrived, sent on unchanged, and
// what the seller's answer makes of the exchange — a finding the proxy answers in its place,
// or JSON the contract's reply rules judged.

/** A request as it reached the proxy, before anything is sent on. */
export interface Arrival {
  /** 1-based, in the order the bodies were read. */
  index: number;
  /** performance.now() when it arrived. */
  started: number;
  tag: string | undefined;
  /** The body as received: forwarded byte for byte. */
  text: string;
  /** The body parsed, or its text when it is not JSON. */
  request: unknown;
  service: string | undefined;
  operation: ForwardedOperation | undefined;
  /** What goes to the seller: the request's own headers less the hop-by-hop ones, plus the proxy's. */
  headers: Record<string, string>;
}

/** Whole milliseconds since the request arrived. */
export const elapsedSince = (arrival: Arrival): number => Math.round(performance.now() - arrival.started);

/** What the seller answered: a reply read within the size limit, or none (not reached, or closed without one). */
export type SellerAnswer = SellerReply | { kind: 'unreachable'; message: string; failure: CallFailure };
export type SellerReply = { kind: 'reply'; status: number; body: LimitedReply; contentType: string | undefined };

/** POSTs the request to `sellerUrl` and reads the reply up to `maxReplyBytes`. Never rejects. */
export async function forwardToSeller(
  arrival: Arrival,
  sellerUrl: string,
  maxReplyBytes: number,
  signal: AbortSignal,
): Promise<SellerAnswer> {
  try {
    // No undici timeouts: the one limit is the proxy's own; abandon() aborts what is left.
    const response = await request(sellerUrl, {
      method: 'POST',
      headers: arrival.headers,
      body: arrival.text,
      signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const type = response.headers['content-type'];
    // Counted while it streams; leaving the read early drops the connection.
    const body = await readReplyWithin(response.body, maxReplyBytes);
    return { kind: 'reply', status: response.statusCode, body, contentType: Array.isArray(type) ? type[0] : type };
  } catch (error) {
    return {
      kind: 'unreachable',
      message: error instanceof Error ? error.message : String(error),
      failure: callFailureOf(error),
    };
  }
}

/** The exchange's fields a judged reply sets. */
export type JudgedFields = Pick<Exchange, 'status' | 'reply' | 'replyText' | 'check' | 'problem' | 'finding'>;

/** A reply the proxy will not relay (not JSON, too large), or JSON with the rules' verdict when it could be checked. */
export type JudgedReply =
  | { kind: 'finding'; finding: ReplyFinding; fields: JudgedFields }
  | {
      kind: 'json';
      status: number;
      text: string;
      contentType: string | undefined;
      check: ReplyCheck | undefined;
      fields: JudgedFields;
    };

const notRelayed = (status: number, finding: ReplyFinding): JudgedReply => ({
  kind: 'finding',
  finding,
  fields: { status, finding, problem: finding.message },
});

/**
 * Reads what the seller answered into the exchange's fields: reply, the rules' verdict, or why it could not be checked.
 */
export function judgeReply(answer: SellerReply, arrival: Arrival): JudgedReply {
  const { status, body, contentType } = answer;
  if (body.kind === 'too-large') return notRelayed(status, tooLargeFinding(status, body.limit, body.bytesRead));
  const notJson = notJsonFinding(status, contentType, body.text);
  if (notJson !== undefined) return notRelayed(status, notJson);
  const reply: unknown = JSON.parse(body.text);
  const json = (check: ReplyCheck | undefined, problem: string | undefined): JudgedReply => ({
    kind: 'json',
    status,
    text: body.text,
    contentType,
    check,
    fields: { status, reply, replyText: body.text, check, problem },
  });
  if (status < 200 || status > 299) return json(undefined, `the seller answered HTTP ${status}`);
  if (arrival.operation === undefined)
    return json(undefined, `the request names no forwarded service ('${arrival.service ?? ''}')`);
  return json(checkSellerReply(arrival.operation, arrival.request, reply), undefined);
}

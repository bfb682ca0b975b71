import type { ProductionReplayFile } from '../contracts/production-replay';
import { replayProductionFile, type ProductionReplayVerdict } from '../verification/production-replay';
import type { CommandIo } from './command-io';
import type { ReplayOptions } from './replay-options';

// `replay <production file> --seller-url <url>`: one line per exchange, "fails" or "no longer
// fails" for the rule it broke in production, and a summary. Exit 1 when any fails again.

const DEFAULT_TIMEOUT_MS = 30_000;

const line = (v: ProductionReplayVerdict, index: number, total: number) => {
  const head = `[${index + 1}/${total}] ${v.exchange.rule} (${v.exchange.operation}, seen ${v.exchange.seen_at})`;
  if (v.verdict === 'fails') return `${head}: fails: ${v.finding!.message} at ${v.finding!.path || '/'}\n`;
  const others = v.others.length === 0 ? '' : ` (but: ${v.others.map((f) => `${f.rule}: ${f.message}`).join('; ')})`;
  return `${head}: no longer fails${others}\n`;
};

export async function runProductionReplay(
  file: ProductionReplayFile,
  options: ReplayOptions,
  io: CommandIo,
): Promise<number> {
  if (options.sellerUrl === undefined) {
    io.stderr(
      `replay: a production replay file needs --seller-url <url>: your own (staging) system; the file names no seller\n`,
    );
    return 2;
  }
  const total = file.exchanges.length;
  const target = {
    sellerUrl: options.sellerUrl,
    headers: options.headers,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  io.stderr(
    `replay: member ${file.member}: ${total} exchange${total === 1 ? '' : 's'} from production, to ${target.sellerUrl}\n`,
  );
  const verdicts = await replayProductionFile(target, file, io.signal, (v, i) => {
    if (!options.json) io.stdout(line(v, i, total));
  });
  if (io.signal.aborted) return 130;
  const failing = verdicts.filter((v) => v.verdict === 'fails');
  if (options.json) {
    io.stdout(
      `${JSON.stringify(
        {
          member: file.member,
          seller_url: target.sellerUrl,
          exchanges: verdicts.map((v) => ({
            rule: v.exchange.rule,
            operation: v.exchange.operation,
            seen_at: v.exchange.seen_at,
            verdict: v.verdict,
            http_status: v.httpStatus,
            ...(v.finding === undefined ? {} : { finding: v.finding }),
            others: v.others,
          })),
          fails: failing.length,
          no_longer_fails: verdicts.length - failing.length,
        },
        null,
        2,
      )}\n`,
    );
  } else if (total === 0) io.stdout('nothing to replay: no reply of this member broke a rule in production\n');
  else
    io.stdout(
      `${failing.length} of ${total} still fail${failing.length === 1 ? 's' : ''}` +
        (failing.length === 0
          ? ': every rule broken in production holds now\n'
          : `: ${[...new Set(failing.map((v) => v.exchange.rule))].join(', ')}\n`),
    );
  return failing.length > 0 ? 1 : 0;
}

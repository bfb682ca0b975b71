// node verify-seller.mjs: verifies the seller system at SELLER_URL against the contract, with
// your state map (STATE_MAP) or your provider-state callback (STATES_URL). Exit 0 when it
// passes, 1 when it does not, 2 on bad input or a seller that cannot be reached.
import { KitInputError, SellerUnreachableError, verifySeller } from '@federated-gateway/toolkit';

const states = process.env.STATE_MAP ? { stateMap: process.env.STATE_MAP } : { statesUrl: process.env.STATES_URL };
try {
  const report = await verifySeller({
    sellerUrl: process.env.SELLER_URL,
    ...states,
    onProgress: (event) => {
      if (event.kind === 'interaction')
        console.error(`[${event.index}/${event.total}] ${event.interaction.description}`);
    },
  });
  for (const rule of report.rules) console.log(`broken: ${rule.rule} (${rule.breaches.length} times)`);
  console.log(report.ok ? 'PASSED' : 'FAILED');
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  if (!(error instanceof KitInputError || error instanceof SellerUnreachableError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
}

import { expect, it } from 'vitest';
import { agentForDeadline } from './deadline-agent';

// A run asks for its dispatcher on every fetch: one Agent per deadline keeps its connections
// alive across them, instead of a new pool (and new sockets) per exchange.
it('gives the same Agent for the same deadline, another for another', () => {
  expect(agentForDeadline(400_000)).toBe(agentForDeadline(400_000));
  expect(agentForDeadline(400_000)).not.toBe(agentForDeadline(2_600));
});

it('refuses a deadline that is no deadline (undici then keeps its own clocks)', () => {
  expect(() => agentForDeadline(0)).toThrow(RangeError);
});

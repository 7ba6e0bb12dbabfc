// The quote's own share of a get-quote, without HTTP: the built gateway's quote service (an
// in-memory store, the configuration given) issuing the quote and JSON.stringify writing it, as the
// server's serializer does, called in a loop in this process of its own. Two cases: one quote asked
// again (answered from the memo) and a new amount every call (computed). Each is measured in
// `rounds` rounds of `calls` calls after as many to warm up, alternating; prints one JSON line:
// the median CPU µs a call of each case, and every round's.
//
//   node bench/quote-alone.mjs <config file> <get-quote query> [rounds] [calls]
import { createGateway, loadConfig } from '../dist/index.js';

const [configFile, query, roundsText = '3', callsText = '20000'] = process.argv.slice(2);
const rounds = Number(roundsText);
const calls = Number(callsText);
const gateway = await createGateway({ ...loadConfig({ configFile }), storage: { dataDir: ':memory:' } });
const { quotes } = gateway.services;
const request = Object.fromEntries(new URLSearchParams(query));
let nextAmount = BigInt(request.amount);
const cases = {
  askedAgain: () => quotes.issue(request),
  newAmount: () => quotes.issue({ ...request, amount: String(++nextAmount) }),
};

/** CPU µs a call of `issue`, its answer written as JSON, over `calls` calls after as many unmeasured. */
async function measure(issue) {
  let written = 0;
  for (let call = 0; call < calls; call++) written += JSON.stringify(await issue()).length;
  const before = process.cpuUsage();
  for (let call = 0; call < calls; call++) written += JSON.stringify(await issue()).length;
  const used = process.cpuUsage(before);
  if (written === 0) throw new Error('the quote service wrote nothing');
  return (used.user + used.system) / calls;
}

/** The median (of an even count, the mean of the middle two), as the bench's rows take it. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[Math.floor(middle)];
}
const measured = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < rounds; round++) for (const [name, issue] of Object.entries(cases)) measured[name].push(await measure(issue));
await gateway.close();
console.log(
  JSON.stringify(
    Object.fromEntries(Object.entries(measured).map(([name, values]) => [name, { medianUs: median(values), roundsUs: values }])),
  ),
);

/**
 * `dlmm balances --sender P [--network mainnet|testnet] [--format text|json]`: what a principal holds of
 * every token of the service's token list, read as `check` reads it (each token's SIP-010 `get-balance`
 * through the node proxy; STX through its wrapper). A balance that cannot be read is listed with why, never
 * as 0. Exit 0 when every balance was read, 1 when some could not be, 2 on a usage error or when the token
 * list cannot be read.
 */
import { formatUnits } from '../../../core/dlmm/bins';
import { readBalancesOf, type LiveBalance } from '../../../core/live/live';
import { routerConfigFor, type Network } from '../../../core/chain/deployments';
import { jsonOutput, parseCommand, parseFormat, withApi } from '../common';
import { checkSenderOption } from '../sender';
import { UsageError, type CliIO } from '../io';
import { loadRouterOverrides } from '../routers';

export const OPTIONS = {
  sender: { type: 'string' },
  network: { type: 'string' },
} as const;

interface Row {
  token: string;
  symbol: string;
  decimals: number;
  balance: LiveBalance;
}

/** Runs `dlmm balances`. */
export async function run(args: string[], io: CliIO): Promise<number> {
  const { common, values } = parseCommand(args, OPTIONS);
  const format = parseFormat(common, ['text', 'json'] as const, 'text');
  const sender = values.sender;
  if (typeof sender !== 'string' || sender === '')
    throw new UsageError('balances needs --sender PRINCIPAL (the address whose balances to read)');
  checkSenderOption(sender, { contract: true });
  const network = (values.network ??
    (sender.startsWith('ST') || sender.startsWith('SN') ? 'testnet' : 'mainnet')) as string;
  if (network !== 'mainnet' && network !== 'testnet')
    throw new UsageError(`--network ${network} is not mainnet or testnet`);
  const routers = await loadRouterOverrides(io);
  const stxWrapper = routerConfigFor(network as Network, routers)?.stxWrapper;
  return withApi(common, io, async (api) => {
    const tokens = await api.tokens();
    const list = tokens.map((t) => t.contract_address);
    if (stxWrapper !== undefined && !list.includes(stxWrapper)) list.push(stxWrapper);
    const read = await readBalancesOf(api, sender, list, stxWrapper);
    const rows: Row[] = read.map((b) => {
      const t = tokens.find((x) => x.contract_address === b.token);
      return {
        token: b.token,
        symbol: b.stx ? 'STX' : (t?.symbol ?? b.token),
        decimals: b.stx ? 6 : (t?.decimals ?? 0),
        balance: b,
      };
    });
    io.out(format === 'json' ? renderJson(sender, rows) : renderText(sender, rows));
    return rows.every((r) => r.balance.amount !== undefined) ? 0 : 1;
  });
}

function renderJson(sender: string, rows: Row[]): string {
  return jsonOutput({
    sender,
    balances: rows.map((r) => ({
      token: r.token,
      symbol: r.symbol,
      decimals: r.decimals,
      stx: r.balance.stx,
      // Base units as a decimal string (exact), or null with the reason when it was not read.
      amount: r.balance.amount !== undefined ? r.balance.amount.toString() : null,
      human: r.balance.amount !== undefined ? formatUnits(r.balance.amount, r.decimals) : null,
      unread: r.balance.unread ?? null,
    })),
  });
}

function renderText(sender: string, rows: Row[]): string {
  const lines = [`balances of ${sender}`];
  const w = Math.max(6, ...rows.map((r) => r.symbol.length));
  for (const r of rows) {
    const b = r.balance;
    const value =
      b.amount !== undefined
        ? `${formatUnits(b.amount, r.decimals)} (${b.amount} base units)`
        : `not read: ${b.unread ?? 'unknown reason'}`;
    lines.push(`  ${r.symbol.padEnd(w)}  ${value}  ${r.token}`);
  }
  return lines.join('\n') + '\n';
}

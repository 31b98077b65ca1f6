/** `--sender` of the commands that take one, checked as a plan's sender is. */
import { addressProblem } from '../../core/plan/address';
import { UsageError } from './io';

/**
 * A --sender value as a plan's sender is checked: the shape, then the address decoded with its checksum
 * (core/plan/address.ts), so a mistyped address is one clear usage error before anything is read.
 * `contract`: an `ADDR.contract-name` principal is accepted too.
 */
export function checkSenderOption(sender: string, opts: { contract?: boolean } = {}): string {
  const shown = sender.length > 60 ? `${sender.slice(0, 60)}…` : sender;
  const parts = sender.split('.');
  const [address, name] = parts;
  const nameOk = name === undefined || (opts.contract === true && CONTRACT_NAME.test(name));
  if (parts.length > 2 || !nameOk)
    throw new UsageError(
      `--sender ${shown} is not ${opts.contract ? 'a Stacks principal (ADDR or ADDR.contract-name)' : 'a standard Stacks address (SP…/SM…/ST…/SN…, without a contract name)'}`,
    );
  const problem = addressProblem(address ?? '');
  if (problem) throw new UsageError(`--sender ${shown} is not a valid Stacks address: ${problem}`);
  return sender;
}

const CONTRACT_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,127}$/;

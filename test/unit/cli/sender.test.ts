/**
 * `--sender` is checked as a plan's sender is, in every command that takes one: a mistyped address (its
 * checksum) is one usage error (exit 2) before anything is read, never a node failure.
 */
import assert from 'node:assert/strict';
import { main } from '../../../cli/src/main';
import { capture } from './capture';

const GOOD = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
// The same address with its last character changed: the shape is right, the checksum is not.
const BAD_CHECKSUM = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBS';

describe('--sender is checked as plans check it', () => {
  const commands: string[][] = [
    ['balances'],
    ['positions'],
    ['plan', 'recentre', '--pool', 'dlmm_1', '--shape', 'spot', '--width', '3'],
    ['quote', '--in', 'sBTC', '--out', 'USDCx', '--amount', '1', '--source', 'core', '--export', 'x.json'],
  ];
  for (const argv of commands) {
    it(`dlmm ${argv.slice(0, 2).join(' ')}: a bad checksum is one usage error, exit 2`, async () => {
      const io = capture();
      assert.equal(await main([...argv, '--sender', BAD_CHECKSUM], io), 2);
      const { out, err } = io.text();
      assert.equal(out, '');
      assert.match(err, /checksum does not match/);
      assert.equal(err.match(/checksum/g)?.length, 1, err);
    });
  }

  it('a contract principal is taken where a contract can hold tokens (balances), and refused elsewhere', async () => {
    const io = capture();
    assert.notEqual(await main(['positions', '--sender', `${GOOD}.vault`], io), 0);
    assert.match(io.text().err, /without a contract name/);
    const b = capture();
    await main(['balances', '--sender', `${GOOD}.vault`], b);
    // Past the --sender check: it stops on the missing service instead.
    assert.match(b.text().err, /^dlmm balances: no service configured/);
  });
});

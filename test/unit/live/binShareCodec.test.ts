/**
 * The Clarity arguments of node reads (core/live/binShareCodec.ts) are kept per input: a kept argument is
 * the one serializing the input gives, each input has its own, and an input that does not encode is refused
 * every time (never kept as something).
 */
import { strict as assert } from 'node:assert';
import { Cl, serializeCV } from '@stacks/transactions';
import { binIdArg, principalArg } from '../../../core/live/binShareCodec';
import { toUnsignedBinId } from '../../../core/dlmm/bins';

describe('node read arguments', () => {
  it('a principal argument, asked again, is the serialization of that principal', () => {
    const a = 'SP15VM42Q85WEKQFW9NQDKKCFNJF2NG2VBTPR6CBR';
    const b = 'SM1793C4R5PZ4NS4VQ4WMP7SKKYVH8JZEWSZ9HCCR.token-stx-v-1-2';
    for (let i = 0; i < 2; i++) {
      assert.equal(principalArg(a), serializeCV(Cl.principal(a)));
      assert.equal(principalArg(b), serializeCV(Cl.principal(b)));
    }
    assert.notEqual(principalArg(a), principalArg(b));
  });

  it('a principal that does not encode is refused each time it is asked', () => {
    assert.throws(() => principalArg('not-a-principal'));
    assert.throws(() => principalArg('not-a-principal'));
  });

  it('a bin id argument is its unsigned uint', () => {
    for (const id of [-500, 0, 7, 500]) assert.equal(binIdArg(id), serializeCV(Cl.uint(toUnsignedBinId(id))));
  });
});

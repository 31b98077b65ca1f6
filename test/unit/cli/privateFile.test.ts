/** The one ownership test behind the code cache and the startup snapshot (cli/src/privateFile.ts). */
import assert from 'node:assert/strict';
import { privateToUser } from '../../../cli/src/privateFile';
import { skipBecause } from '../../skip';

describe('privateToUser', () => {
  const uid = process.getuid?.();

  it("this user's file that no one else may write: private; writable by group or others, or another user's: not", function () {
    if (uid === undefined) skipBecause(this, 'no user ids on this platform (Windows): see the next test');
    assert.equal(privateToUser({ uid, mode: 0o100600 }), true);
    assert.equal(privateToUser({ uid, mode: 0o40700 }), true);
    assert.equal(privateToUser({ uid, mode: 0o100620 }), false);
    assert.equal(privateToUser({ uid, mode: 0o100602 }), false);
    assert.equal(privateToUser({ uid: uid + 1, mode: 0o100600 }), false);
  });

  it('without user ids the answer is unknown (each caller decides)', () => {
    const getuid = process.getuid;
    Object.defineProperty(process, 'getuid', { value: undefined, configurable: true });
    try {
      assert.equal(privateToUser({ uid: 0, mode: 0o100600 }), undefined);
    } finally {
      Object.defineProperty(process, 'getuid', { value: getuid, configurable: true });
    }
  });
});

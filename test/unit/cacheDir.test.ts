/** The one ownership rule behind the node cache and the code cache (core/cacheDir.ts ownershipProblem). */
import assert from 'node:assert/strict';
import { ownershipProblem } from '../../core/cacheDir';
import { skipBecause } from '../skip';

describe('ownershipProblem', () => {
  const uid = process.getuid?.();

  it("this user's file that no one else may write: none; writable by group or others, or another user's: said", function () {
    if (uid === undefined) skipBecause(this, 'no user ids on this platform (Windows): see the next test');
    assert.equal(ownershipProblem({ uid, mode: 0o100600 }), undefined);
    assert.equal(ownershipProblem({ uid, mode: 0o40700 }), undefined);
    assert.equal(ownershipProblem({ uid, mode: 0o100620 }), 'it is writable by its group (mode 620)');
    assert.equal(ownershipProblem({ uid, mode: 0o100602 }), 'it is writable by everyone (mode 602)');
    assert.equal(
      ownershipProblem({ uid: uid + 1, mode: 0o100600 }),
      `it belongs to user ${uid + 1}, not to you (${uid})`,
    );
  });

  it('without user ids there is no owner to check', () => {
    const getuid = process.getuid;
    Object.defineProperty(process, 'getuid', { value: undefined, configurable: true });
    try {
      assert.equal(ownershipProblem({ uid: 0, mode: 0o100666 }), undefined);
    } finally {
      Object.defineProperty(process, 'getuid', { value: getuid, configurable: true });
    }
  });
});

import { expect } from 'chai';
import { newCallId } from '../../src/database/ids.ts';

describe('call ids', function () {
  it('are UUIDv7s in 32 hex digits, all different across many refills of the random pool', function () {
    const ids = Array.from({ length: 2000 }, () => newCallId());
    expect(new Set(ids).size).to.equal(2000);
    for (const id of ids) expect(id).to.match(/^call_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
  });

  it('of a later millisecond sort after those of an earlier one', async function () {
    const earlier = newCallId();
    const millisecond = earlier.slice(5, 17);
    let later = newCallId();
    // Draws until the clock has moved on (the next turn of the event loop each time, no fixed wait).
    while (later.slice(5, 17) === millisecond) {
      await new Promise((resolve) => setImmediate(resolve));
      later = newCallId();
    }
    expect(later > earlier).to.equal(true);
  });
});

/**
 * The candidate search's skin lists (src/collision/skin-lists.ts): while every item box and query box stays inside
 * its box at the lists' build grown by the skin, a particle's items come from its list, filtered by the current
 * boxes, instead of a hash built and queried again. They must give exactly the hash query's items, so results are
 * bit-identical with the lists on or off.
 */
import { describe, expect, it } from 'vitest';
import { ItemBroadphase } from '../src/collision/broadphase';
import { SpatialHash } from '../src/collision/hash';
import { SK_WANT, SKIN_BUILT, SKIN_ESCAPED_MAX, SKIN_HELD, SKIN_NONE, SkinLists } from '../src/collision/skin-lists';
import { mulberry32 } from '../src/math';
import { colliderPage, compareTwins, paddlePile, smallPile, type Scene } from './support/twins';

/** The exact query: a hash over the boxes `ib` as they are, queried with particle i's box. */
function exactItems(ib: Float64Array, nItems: number, cell: number, qb: Float64Array, i: number): number[] {
  const h = new SpatialHash(1 << 10);
  h.begin(nItems, cell);
  for (let k = 0; k < nItems; k++) h.setBox(k, ib[4 * k]!, ib[4 * k + 1]!, ib[4 * k + 2]!, ib[4 * k + 3]!);
  h.build();
  const out = { buf: new Int32Array(4) };
  const cnt = h.query(qb[4 * i]!, qb[4 * i + 1]!, qb[4 * i + 2]!, qb[4 * i + 3]!, out);
  return Array.from(out.buf.subarray(0, cnt));
}

function randomBoxes(rand: () => number, n: number, size: number, extent: number): Float64Array {
  const b = new Float64Array(4 * n);
  for (let k = 0; k < n; k++) {
    const x = extent * rand(), y = extent * rand(), w = size * (0.2 + rand()), h = size * (0.2 + rand());
    b.set([x, y, x + w, y + h], 4 * k);
  }
  return b;
}

/** A broad phase holding `items` as its boxes, with cells of size `cell` (no hash built yet: the lists build it). */
function broadphaseOver(items: Float64Array, cell: number): ItemBroadphase {
  const bp = new ItemBroadphase();
  bp.hash.grid[0] = cell;
  bp.hash.grid[1] = 1 / cell;
  bp.itemBox = items;
  bp.nItems = items.length / 4;
  return bp;
}

describe('skin lists', () => {
  it('give exactly the hash query of the current boxes, held or built again (random boxes drifting)', () => {
    const rand = mulberry32(7);
    const nItems = 120, n = 90, cell = 0.5, skin = 0.05;
    const bp = broadphaseOver(randomBoxes(rand, nItems, 0.3, 4), cell);
    const qb = randomBoxes(rand, n, 0.4, 4);
    const qf = new Uint8Array(n);
    for (let i = 0; i < n; i++) qf[i] = rand() < 0.8 ? 1 : 0;
    const lists = new SkinLists();
    lists.sk[SK_WANT] = skin;
    const out = { buf: new Int32Array(4) };
    let compared = 0, nonEmpty = 0;
    for (let round = 0; round < 300; round++) {
      // the item boxes, the query boxes or both (by turns) move by up to 0.3 σ along x and y (every fourth round
      // 3 σ) and grow or shrink by up to 0.1 σ a side, as long as they stay proper (min ≤ max, as the search's boxes
      // are): the lists held for a few rounds, then built again
      const moving = round % 3 === 0 ? [bp.itemBox] : round % 3 === 1 ? [qb] : [bp.itemBox, qb];
      const amp = round % 4 === 3 ? 3 : 0.3;
      for (const b of moving) {
        for (let k = 0; k < b.length; k += 4) {
          const dx = amp * skin * (2 * rand() - 1), dy = amp * skin * (2 * rand() - 1), g = 0.1 * skin * (2 * rand() - 1);
          const x0 = b[k]! + dx - g, y0 = b[k + 1]! + dy - g, x1 = b[k + 2]! + dx + g, y1 = b[k + 3]! + dy + g;
          if (x0 <= x1 && y0 <= y1) b.set([x0, y0, x1, y1], k);
        }
      }
      if (lists.ensure(bp, n, qb, qf, 1) === SKIN_NONE) continue; // backing off: the search queries the exact hash
      for (let i = 0; i < n; i++) {
        if (qf[i] !== 1) continue;
        const k = lists.filter(i, bp.itemBox, qb, out); // may grow out.buf: read it after
        const got = Array.from(out.buf.subarray(0, k));
        expect(got).toEqual(exactItems(bp.itemBox, nItems, cell, qb, i));
        compared++;
        if (got.length > 0) nonEmpty++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(nonEmpty).toBeGreaterThan(1_000);
    expect(lists.builds).toBeGreaterThan(10);
    expect(lists.reuses).toBeGreaterThan(30);
  });

  it('are built again for a particle that starts to query, or when the caller says they are not the same', () => {
    const rand = mulberry32(3);
    const bp = broadphaseOver(randomBoxes(rand, 20, 0.3, 3), 1);
    const qb = randomBoxes(rand, 10, 0.3, 3), qf = new Uint8Array(10).fill(1);
    qf[4] = 0;
    const lists = new SkinLists();
    lists.sk[SK_WANT] = 0.1;
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_BUILT);
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_HELD);
    qf[4] = 1; // no list was built for it
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_BUILT);
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_HELD);
    expect(lists.ensure(bp, 10, qb, qf, 0)).toBe(SKIN_BUILT); // another skin, or a smaller trust growth (the search decides)
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_HELD);
    expect(lists.ensure(bp, 9, qb, qf, 1)).toBe(SKIN_BUILT); // another particle count
    expect(lists.ensure(bp, 9, qb, qf, 1)).toBe(SKIN_HELD);
    expect([lists.builds, lists.reuses, lists.skipped]).toEqual([4, 4, 0]);
  });

  it('back off after builds that served no search (1, 3, 7, then 15 searches on the exact hash), until one does', () => {
    const rand = mulberry32(4);
    const bp = broadphaseOver(randomBoxes(rand, SKIN_ESCAPED_MAX + 8, 0.3, 3), 1); // more items than may leave their skins
    const qb = randomBoxes(rand, 10, 0.3, 3), qf = new Uint8Array(10).fill(1);
    const lists = new SkinLists();
    lists.sk[SK_WANT] = 0.1;
    const seq: string[] = [];
    const name = { [SKIN_NONE]: 'n', [SKIN_HELD]: 'h', [SKIN_BUILT]: 'B' } as Record<number, string>;
    // every box moves by 2 σ between searches: no list serves a search
    for (let k = 0; k < 47; k++) {
      for (let j = 0; j < bp.itemBox.length; j++) bp.itemBox[j] = bp.itemBox[j]! + 0.2;
      seq.push(name[lists.ensure(bp, 10, qb, qf, 1)]!);
    }
    expect(seq.join('')).toBe('BnB' + 'nnn' + 'B' + 'n'.repeat(7) + 'B' + 'n'.repeat(15) + 'B' + 'n'.repeat(15) + 'B');
    // at rest: the next build serves the searches after it, and a build wasted after that skips one search again
    const rest: string[] = [];
    for (let k = 0; k < 18; k++) rest.push(name[lists.ensure(bp, 10, qb, qf, 1)]!);
    expect(rest.join('')).toBe('h'.repeat(18));
    for (let j = 0; j < bp.itemBox.length; j++) bp.itemBox[j] = bp.itemBox[j]! + 0.2;
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_BUILT);
    for (let j = 0; j < bp.itemBox.length; j++) bp.itemBox[j] = bp.itemBox[j]! + 0.2;
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_NONE);
    expect(lists.ensure(bp, 10, qb, qf, 1)).toBe(SKIN_BUILT);
  });

  it('still serve while a few items leave their skins (a moving platform), each then tested by every query', () => {
    const rand = mulberry32(11);
    const nItems = 80, n = 60, cell = 0.5, skin = 0.05;
    const bp = broadphaseOver(randomBoxes(rand, nItems, 0.3, 3), cell);
    const qb = randomBoxes(rand, n, 0.4, 3), qf = new Uint8Array(n).fill(1);
    const lists = new SkinLists();
    lists.sk[SK_WANT] = skin;
    const out = { buf: new Int32Array(4) };
    const movers = [3, 17, 40, 41, 79]; // platforms sweeping across the whole scene
    let met = 0;
    for (let round = 0; round < 120; round++) {
      for (const m of movers) {
        const x = 3 * rand(), y = 3 * rand();
        bp.itemBox.set([x, y, x + 0.4, y + 0.2], 4 * m);
      }
      const got = lists.ensure(bp, n, qb, qf, 1);
      expect(got).toBe(round === 0 ? SKIN_BUILT : SKIN_HELD);
      for (let i = 0; i < n; i++) {
        const k = lists.filter(i, bp.itemBox, qb, out);
        const items = Array.from(out.buf.subarray(0, k));
        expect(items).toEqual(exactItems(bp.itemBox, nItems, cell, qb, i));
        met += items.filter((j) => movers.includes(j)).length;
      }
    }
    expect(met).toBeGreaterThan(100); // the platforms were met, in and out of the lists' items
    expect(lists.builds).toBe(1);
    // more items leaving than SKIN_ESCAPED_MAX: built again
    for (let m = 0; m <= SKIN_ESCAPED_MAX; m++) bp.itemBox[4 * m] = bp.itemBox[4 * m]! - 1;
    expect(lists.ensure(bp, n, qb, qf, 1)).toBe(SKIN_BUILT);
  });

  it('are not used for a box with a bound that is not finite or a minimum above its maximum: the search then queries the exact hash', () => {
    // offsets in a box and values: NaN anywhere, −∞ in a minimum, +∞ in a maximum; and boxes that are not proper
    // (a minimum above its maximum: +∞ there, or −∞ in a maximum)
    for (const [at, bad] of [[1, NaN], [1, -Infinity], [2, Infinity], [0, NaN], [0, -Infinity], [3, Infinity], [1, Infinity], [2, -Infinity]] as const) {
      for (const which of ['item', 'query'] as const) {
        const bp = broadphaseOver(randomBoxes(mulberry32(5), 8, 0.3, 2), 1);
        const qb = randomBoxes(mulberry32(6), 4, 0.3, 2), qf = new Uint8Array(4).fill(1);
        const lists = new SkinLists();
        lists.sk[SK_WANT] = 0.1;
        expect(lists.ensure(bp, 4, qb, qf, 1)).toBe(SKIN_BUILT);
        expect(lists.ensure(bp, 4, qb, qf, 1)).toBe(SKIN_HELD); // served a search: no backing off below
        (which === 'item' ? bp.itemBox : qb)[4 + at] = bad;
        expect(lists.ensure(bp, 4, qb, qf, 1)).toBe(SKIN_NONE);
        expect([lists.builds, lists.skipped]).toEqual([1, 0]); // the build gave up on the box
      }
    }
  });

  /** A scene stepped with the skin lists on and, in its twin, off: bit for bit, and the lists held and rebuilt. */
  function sameWithAndWithout(make: () => Scene, steps: number): void {
    let on: Scene | null = null;
    const r = compareTwins(() => {
      const s = make();
      on ??= s;
      return s;
    }, steps, (twin) => {
      twin.world.contacts.skinLists.on = false;
    });
    expect(r.firstDifference).toBe(-1);
    expect(r.touching).toBeGreaterThan(5);
    const lists = on!.world.contacts.skinLists;
    expect(lists.builds).toBeGreaterThan(5);
    expect(lists.reuses).toBeGreaterThan(steps / 4);
  }

  it('change no result among every collider kind, landing and at rest', () => {
    sameWithAndWithout(() => colliderPage(false), 420);
  });

  it('change no result in a pile with friction and sleeping on', () => {
    sameWithAndWithout(() => {
      const s = smallPile();
      s.world.sleeping = true;
      return s;
    }, 300);
  });

  it('change no result while a collider sweeps through a pile', () => {
    sameWithAndWithout(paddlePile, 300);
  });
});

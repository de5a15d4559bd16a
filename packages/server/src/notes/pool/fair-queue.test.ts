import { describe, expect, it } from 'vitest';

import { FairQueue } from './fair-queue.js';

describe('FairQueue', () => {
  it('serves tenants in turn, each first in first out', () => {
    const queue = new FairQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    queue.push('b', 'b2');
    expect(queue.size).toBe(7);
    expect(queue.sizeOf('a')).toBe(4);
    const order = Array.from({ length: 7 }, () => queue.shift());
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(queue.shift()).toBeUndefined();
    expect(queue.size).toBe(0);
  });

  it('serves the tenant served least recently first, one just served coming back included', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    expect(queue.shift()).toBe('a1');
    // a was just served, with nothing left waiting: b, who came after, still goes before a2.
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    queue.push('c', 'c1');
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['b1', 'c1', 'a2']);
  });

  it('forgets idle tenants past a thousand, and still serves everyone', () => {
    const queue = new FairQueue<number>();
    for (let tenant = 0; tenant < 2000; tenant++) {
      queue.push(`t${tenant}`, tenant);
      expect(queue.shift()).toBe(tenant);
    }
    queue.push('t5', 1);
    queue.push('t1999', 2);
    expect([queue.shift(), queue.shift()].sort()).toEqual([1, 2]);
  });

  it('removes an item wherever it waits, and drains everything', () => {
    const queue = new FairQueue<string>();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    expect(queue.remove('a1')).toBe(true);
    expect(queue.remove('a1')).toBe(false);
    expect(queue.remove('b1')).toBe(true);
    expect(queue.sizeOf('b')).toBe(0);
    expect(queue.size).toBe(1);
    queue.push('c', 'c1');
    expect(queue.drain().sort()).toEqual(['a2', 'c1']);
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});

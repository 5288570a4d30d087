/** A binary min-heap: jobs are settled and expired in time order without scanning them all. */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly key: (item: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.key(items[parent]!) <= this.key(item)) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = item;
  }

  /** Restores the order after keys of items in it changed. */
  reorder(): void {
    const items = this.items.splice(0);
    for (const item of items) this.push(item);
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && this.key(items[right]!) < this.key(items[left]!) ? right : left;
      if (this.key(items[child]!) >= this.key(last)) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }
}

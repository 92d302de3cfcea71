/** A command waiting for its actor, with the caller's promise to settle. */
export interface Letter<C> {
  command: C;
  /** The sender's sandbox clock offset (@ndc/clock sellerOffset): the command is decided on the sender's business time. */
  offsetMs: number;
  resolve(reply: unknown): void;
  reject(error: unknown): void;
}

/**
 * A FIFO of letters for one key. A ring of head index + array so taking from the front of a
 * long queue (a burst of thousands) stays O(1).
 */
export class Mailbox<C> {
  private items: Letter<C>[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(letter: Letter<C>): void {
    this.items.push(letter);
  }

  shift(): Letter<C> | undefined {
    if (this.head >= this.items.length) return undefined;
    const letter = this.items[this.head];
    this.items[this.head++] = undefined as unknown as Letter<C>;
    // Compact once the consumed prefix dominates, so memory follows the live queue.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return letter;
  }
}

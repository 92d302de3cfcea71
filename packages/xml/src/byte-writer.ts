/**
 * A streaming XML writer straight to UTF-8 bytes: elements are written in document order as the
 * encoder walks its view, into one growing byte buffer, with no tree of nodes and no list of
 * strings joined at the end (joining about 33,000 pieces of a 748 KB AirShoppingRS was a quarter
 * of writing it). Each string is escaped once, as its characters are copied; a fragment that
 * recurs (an a-la-carte item listed by several offers, a brand's conditions) is written once as
 * bytes (`fragmentBytes`) and copied in with `raw`, a memory copy.
 *
 * The output follows the tree serializer's rules exactly (./build.ts), so an encoder ported from
 * the tree builder writes the same bytes: an element with nothing written between its tags is
 * self-closed (`start` leaves its ">" pending until something is written inside), an empty string
 * value still counts as content (`<a></a>`), characters XML 1.0 cannot carry are dropped, and
 * & < > (and in attributes " and the whitespace controls) are escaped as the builder escapes them.
 * test/xml/byte-writer.test.ts checks these rules against the builder; the AirShoppingRS and
 * OfferPriceRS writers are proven byte-identical to their tree encoders by
 * test/shopping/response-writer.test.ts.
 */
import { escapeAttr, escapeText, serialize, type Child, type XNode } from "./build";

const GT = 62;
const SLASH = 47;
const LT = 60;
const utf8 = new TextEncoder();
const utf8Text = new TextDecoder();

/**
 * Scratch buffers reused across answers: a writer copies its bytes out when it finishes, so the
 * next one can write over them. A stack, because fragments are written while their answer is.
 * Bounded in number and size, so one huge answer does not pin its buffer for ever.
 */
const scratch: Uint8Array[] = [];
const SCRATCH_KEEP = 8;
const SCRATCH_MAX_BYTES = 4 * 1024 * 1024;

export class ByteWriter {
  private buf: Uint8Array;
  private pos = 0;
  /** A start tag was written without its ">": the element may still turn out empty ("/>"). */
  private pending = false;
  /** Elements started and not yet ended: finishing refuses a document left open. */
  private depth = 0;

  constructor() {
    this.buf = scratch.pop() ?? new Uint8Array(64 * 1024);
  }

  /** Opens an element; attributes are escaped here. Close it with `end(name)`. */
  start(name: string, attrs?: Readonly<Record<string, string | number | undefined>>): void {
    if (this.pending) this.byte(GT);
    this.room(name.length + 1);
    this.buf[this.pos++] = LT;
    this.name(name);
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v === undefined) continue;
        this.room(k.length + 3);
        this.buf[this.pos++] = 32;
        this.name(k);
        this.buf[this.pos++] = 61; // =
        this.buf[this.pos++] = 34; // "
        this.text(escapeAttr(String(v)));
        this.byte(34);
      }
    }
    this.pending = true;
    this.depth++;
  }

  /** Closes the element opened last: self-closed when nothing was written inside it. */
  end(name: string): void {
    this.depth--;
    if (this.pending) {
      this.room(2);
      this.buf[this.pos++] = SLASH;
      this.buf[this.pos++] = GT;
      this.pending = false;
      return;
    }
    this.closeTag(name);
  }

  /**
   * An element holding one value, in one piece: always written, "" as `<a></a>`; an absent value
   * self-closes it, as the tree builder's `c(name, undefined)` does.
   */
  leaf(name: string, value: string | number | undefined | null): void {
    if (this.pending) {
      this.byte(GT);
      this.pending = false;
    }
    this.room(name.length + 2);
    this.buf[this.pos++] = LT;
    this.name(name);
    if (value === undefined || value === null) {
      this.buf[this.pos++] = SLASH;
      this.buf[this.pos++] = GT;
      return;
    }
    this.buf[this.pos++] = GT;
    if (typeof value === "number") this.text(String(value));
    else this.escaped(value);
    this.closeTag(name);
  }

  /** Like `leaf`, but nothing at all when the value is absent or empty (optional elements). */
  opt(name: string, value: string | number | undefined | null): void {
    if (value === undefined || value === null || value === "") return;
    this.leaf(name, value);
  }

  /**
   * Text that needs no escaping (a formatted amount), or bytes written before (a fragment). A
   * fragment that wrote nothing is nothing, as an absent child is: it leaves an element empty.
   */
  raw(content: string | Uint8Array): void {
    if (typeof content !== "string" && content.length === 0) return;
    if (this.pending) {
      this.byte(GT);
      this.pending = false;
    }
    if (typeof content === "string") {
      this.text(content);
      return;
    }
    this.room(content.length);
    this.buf.set(content, this.pos);
    this.pos += content.length;
  }

  /**
   * A tree-built node (DataLists, shared with messages still built as trees) written in place by
   * walking it, with the serializer's rules; a node that only holds its text (`shared`) is copied.
   */
  node(n: XNode): void {
    if (n.shared) {
      this.raw(serialize(n).slice(DECLARATION.length));
      return;
    }
    this.start(n.name, n.attrs);
    this.children(n.children);
    this.end(n.name);
  }

  private children(children: readonly Child[]): void {
    for (let i = 0; i < children.length; i++) {
      const ch = children[i];
      if (ch === null || ch === undefined || ch === false) continue;
      if (typeof ch === "string") {
        if (this.pending) {
          this.byte(GT);
          this.pending = false;
        }
        this.escaped(ch);
      } else if (typeof ch === "number") this.raw(String(ch));
      else if (Array.isArray(ch)) this.children(ch);
      else this.node(ch);
    }
  }

  /** Everything written, as bytes of their own; the writer is done. */
  bytes(): Uint8Array {
    this.close();
    const out = this.buf.slice(0, this.pos);
    this.release();
    return out;
  }

  /** Everything written, as a string (for a tree that still wants text); the writer is done. */
  string(): string {
    this.close();
    const s = utf8Text.decode(this.buf.subarray(0, this.pos));
    this.release();
    return s;
  }

  private close(): void {
    if (this.depth !== 0) throw new Error("ByteWriter: an element is still open.");
  }

  private release(): void {
    if (scratch.length < SCRATCH_KEEP && this.buf.length <= SCRATCH_MAX_BYTES) scratch.push(this.buf);
    this.buf = EMPTY;
    this.pos = 0;
  }

  private closeTag(name: string): void {
    this.room(name.length + 3);
    this.buf[this.pos++] = LT;
    this.buf[this.pos++] = SLASH;
    this.name(name);
    this.buf[this.pos++] = GT;
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.pos++] = b;
  }

  /** An element or attribute name (ASCII by construction); room already made. */
  private name(s: string): void {
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** A text value, escaped as `escapeText` does while it is copied. */
  private escaped(s: string): void {
    this.copy(s, true);
  }

  /** Text already escaped. */
  private text(s: string): void {
    this.copy(s, false);
  }

  /**
   * Copies ASCII byte for byte; at the first character that is not plain ASCII (or, when
   * escaping, one of & < > or a control character) the rest takes the builder's own escaping and
   * UTF-8. One loop for both: it is the hottest code of the writer.
   */
  private copy(s: string, escape: boolean): void {
    const n = s.length;
    this.room(n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const ch = s.charCodeAt(i);
      if (ch >= 0x80 || (escape && (ch === 38 || ch === 60 || ch === 62 || (ch < 0x20 && ch !== 9 && ch !== 10 && ch !== 13)))) {
        this.pos = p;
        if (escape) this.copy(escapeText(s.slice(i)), false);
        else this.utf8(s.slice(i));
        return;
      }
      b[p++] = ch;
    }
    this.pos = p;
  }

  private utf8(s: string): void {
    this.room(s.length * 3);
    const { written } = utf8.encodeInto(s, this.buf.subarray(this.pos));
    this.pos += written;
  }

  /** Makes room for n more bytes, doubling the buffer. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = Math.max(this.buf.length * 2, 1024);
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
}

const EMPTY = new Uint8Array(0);
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/**
 * Writes `f` into a writer of its own and returns its bytes: for a fragment that recurs (an
 * a-la-carte item, a brand's conditions), written once, then copied with `raw`.
 */
export function fragmentBytes(f: (w: ByteWriter) => void): Uint8Array {
  const w = new ByteWriter();
  f(w);
  return w.bytes();
}

/**
 * Writes `value` with `write`, or copies the bytes written for it before: a frozen value never
 * changes, so its bytes are kept (in `kept`, weakly) for as long as the value lives. Shopping
 * freezes what it keeps across requests (offer parts, a-la-carte items), so a repeated search
 * writes those once; a value built for one answer is not frozen and is written each time. A
 * frozen value is written straight in the first time it is met, and kept as bytes only when it
 * comes again: most of what a first search of its kind writes is never written a second time.
 */
export function writeKept<T extends object>(w: ByteWriter, kept: KeptBytes<T>, value: T, write: (w: ByteWriter, v: T) => void): void {
  // The lookup first: a hit needs no isFrozen, which costs more than the lookup on a large object.
  const bytes = kept.get(value);
  if (bytes === undefined) {
    if (Object.isFrozen(value)) kept.set(value, SEEN);
    write(w, value);
    return;
  }
  if (bytes === SEEN) {
    const made = fragmentBytes((x) => write(x, value));
    kept.set(value, made);
    w.raw(made);
    return;
  }
  w.raw(bytes);
}

/** A frozen value met once: its bytes are kept when it comes again. */
const SEEN: unique symbol = Symbol("seen once");

/** Where `writeKept` keeps bytes (one per kind of value). */
export type KeptBytes<T extends object> = WeakMap<T, Uint8Array | typeof SEEN>;

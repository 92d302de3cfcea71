/**
 * A streaming XML writer: elements are written to text in document order as the encoder walks its
 * view, with no tree of nodes built first and walked again (the tree builder, ./build.ts, is still
 * what smaller messages use). Each string is escaped once, when it is written.
 *
 * The output follows the tree serializer's rules exactly, so an encoder ported from the tree
 * builder writes the same bytes: an element with nothing written between its tags is self-closed
 * (`start` leaves its ">" pending until something is written inside), and an empty string value
 * still counts as content (`<a></a>`). The AirShoppingRS/OfferPriceRS writers are proven
 * byte-identical to their tree encoders by test/shopping/response-writer.test.ts.
 */
import { escapeAttr, escapeText, serialize, type XNode } from "./build";

export class XmlWriter {
  private readonly out: string[] = [];
  /** A start tag was written without its ">": the element may still turn out empty ("/>"). */
  private pending = false;
  /** Elements started and not yet ended: text() refuses a document left open. */
  private depth = 0;

  /** Opens an element; attributes are escaped here. Close it with `end(name)`. */
  start(name: string, attrs?: Readonly<Record<string, string | number | undefined>>): void {
    if (this.pending) this.out.push(">");
    let open = "<" + name;
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v !== undefined) open += " " + k + '="' + escapeAttr(String(v)) + '"';
      }
    }
    this.out.push(open);
    this.pending = true;
    this.depth++;
  }

  /** Closes the element opened last: self-closed when nothing was written inside it. */
  end(name: string): void {
    this.depth--;
    if (this.pending) {
      this.out.push("/>");
      this.pending = false;
    } else this.out.push("</" + name + ">");
  }

  /**
   * An element holding one value, in one piece: always written, "" as `<a></a>`; an absent value
   * self-closes it, as the tree builder's `c(name, undefined)` does.
   */
  leaf(name: string, value: string | number | undefined | null): void {
    if (this.pending) {
      this.out.push(">");
      this.pending = false;
    }
    if (value === undefined || value === null) {
      this.out.push("<" + name + "/>");
      return;
    }
    this.out.push("<" + name + ">" + (typeof value === "number" ? String(value) : escapeText(value)) + "</" + name + ">");
  }

  /** Like `leaf`, but nothing at all when the value is absent or empty (optional elements). */
  opt(name: string, value: string | number | undefined | null): void {
    if (value === undefined || value === null || value === "") return;
    this.leaf(name, value);
  }

  /** Text already escaped (a fragment this writer class wrote before, reused as bytes). */
  raw(text: string): void {
    if (this.pending) {
      this.out.push(">");
      this.pending = false;
    }
    this.out.push(text);
  }

  /** A tree-built node (a shared Warning, say) written in place. */
  node(n: XNode): void {
    this.raw(serializeFragment(n));
  }

  /** Everything written so far, as one string. */
  text(): string {
    if (this.depth !== 0) throw new Error("XmlWriter: an element is still open.");
    return this.out.join("");
  }
}

/**
 * Writes `f` into a writer of its own and returns the text: for a fragment that recurs (an
 * a-la-carte item, a brand's conditions) and is written once, then copied with `raw`.
 */
export function fragment(f: (w: XmlWriter) => void): string {
  const w = new XmlWriter();
  f(w);
  return w.text();
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
function serializeFragment(n: XNode): string {
  return serialize(n).slice(DECLARATION.length);
}

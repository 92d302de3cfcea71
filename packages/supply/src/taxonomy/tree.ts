/**
 * The airline taxonomy (spec 4.8.5-4.8.7): a tree of nodes, each a 4-character code. The ten
 * product codes of spec 4.8 rule 5 sit under parent nodes; the parent and remaining leaf codes
 * are the simulation's own picks until checked against the public codeset (docs/supply.md).
 */
export interface TaxonomyNode {
  code: string;
  name: string;
  parent: string | undefined;
}

export const TAXONOMY_NODES: readonly TaxonomyNode[] = [
  { code: "0100", name: "Baggage", parent: undefined },
  { code: "0110", name: "Checked baggage", parent: "0100" },
  { code: "0120", name: "Cabin baggage", parent: "0100" },
  { code: "0130", name: "Pets in the cabin", parent: "0100" },
  { code: "0200", name: "In-flight", parent: undefined },
  { code: "0210", name: "Meals", parent: "0200" },
  { code: "0220", name: "Wi-Fi", parent: "0200" },
  { code: "0300", name: "Airport services", parent: undefined },
  { code: "0310", name: "Priority boarding", parent: "0300" },
  { code: "1B58", name: "Lounge access", parent: "0300" },
  { code: "26AC", name: "Fast track", parent: "0300" },
  { code: "0400", name: "Ground transportation", parent: undefined },
  { code: "0410", name: "Transfers", parent: "0400" },
  { code: "2CEC", name: "Airport transfers", parent: "0410" },
  { code: "2E7C", name: "Train transfers", parent: "0410" },
  { code: "2FA8", name: "Bus transfers", parent: "0410" },
  { code: "2D50", name: "Car rental", parent: "0400" },
  { code: "0500", name: "Travel services", parent: undefined },
  { code: "3138", name: "Hotel vouchers", parent: "0500" },
  { code: "319C", name: "eSIM", parent: "0500" },
  { code: "3200", name: "Travel insurance and baggage protection", parent: "0500" },
  { code: "0E10", name: "Carbon offset", parent: "0500" },
  { code: "0600", name: "Fare products", parent: undefined },
  { code: "0610", name: "Flexibility", parent: "0600" },
];

const BY_CODE = new Map(TAXONOMY_NODES.map((n) => [n.code, n]));

export function taxonomyNode(code: string): TaxonomyNode | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** Codes from the root down to this node. */
export function ancestry(code: string): string[] {
  const chain: string[] = [];
  let node = taxonomyNode(code);
  while (node) {
    chain.unshift(node.code);
    node = node.parent ? BY_CODE.get(node.parent) : undefined;
  }
  return chain;
}

/** The codeset path carried as DescText, e.g. "Ground transportation / Transfers / Train transfers". */
export function codesetPath(code: string): string {
  const chain = ancestry(code);
  if (chain.length === 0) throw new RangeError(`unknown taxonomy node ${code}`);
  return chain.map((c) => BY_CODE.get(c)!.name).join(" / ");
}

/** True when node is the ancestor itself or anywhere below it. */
export function isAtOrBelow(node: string, ancestor: string): boolean {
  return ancestry(node).includes(ancestor.toUpperCase());
}

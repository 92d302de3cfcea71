/** An amount as the seller commands print it: "211.50 EUR", or "-" when the answer had none. */
export const money = (a?: { amount: string; currency: string }) => (a ? `${a.amount} ${a.currency}` : "-");

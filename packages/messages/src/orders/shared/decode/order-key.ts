import { invalid, optText, req, reqText, type Cursor } from "../../../shopping/shared/cursor";

/** An order named by a seller: OrderID and OwnerCode, optionally the version they last saw. */
export interface OrderKey {
  orderId: string;
  ownerCode: string;
  orderVersion?: number;
}

const OWNER = /^[A-Z0-9]{2,3}$/;

/** OrderFilterCriteriaType / OrderKeyType: the two share OrderID, OrderVersionNumber, OwnerCode. */
export function orderKey(o: Cursor): OrderKey {
  const key: OrderKey = { orderId: reqText(o, "OrderID"), ownerCode: reqText(o, "OwnerCode") };
  if (!OWNER.test(key.ownerCode)) throw invalid(`${o.path}/OwnerCode`, "OwnerCode is an airline designator of 2 or 3 letters or digits.");
  const version = optText(o, "OrderVersionNumber");
  if (version !== undefined) {
    if (!/^\d{1,9}$/.test(version)) throw invalid(`${o.path}/OrderVersionNumber`, "OrderVersionNumber is a whole number.");
    key.orderVersion = Number(version);
  }
  return key;
}

/** An element required by the schema whose OrderKey we read. */
export function requiredOrderKey(parent: Cursor, name: string): OrderKey {
  return orderKey(req(parent, name));
}

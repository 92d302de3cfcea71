import { invalid, opt, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { OrderPax } from "../shared/decode/passengers";
import type { OrderChange } from "./request";

/**
 * ChangeOrderChoice/UpdatePax (24.4 OrderChangeUpdatePaxType): `Current/PaxRefID` names the
 * order's passenger, `New/PaxRefID` a Pax of DataLists/PaxList carrying the corrected name
 * (IndividualType). "Providing the New and Previous values together implies an Update": both
 * are required here, since adding or removing a passenger is not offered. The name's parts were
 * checked against their 24.4 types (ProperNameType, SupplementNameType) by orderPassengers;
 * an IdentityDoc anywhere was refused before this runs (identity_document_not_updatable).
 */
export function updatePax(update: Cursor, passengers: readonly OrderPax[]): Extract<OrderChange, { form: "updatePax" }> {
  const current = reqText(reqCursor(update, "Current"), "PaxRefID");
  const newRef = reqText(reqCursor(update, "New"), "PaxRefID");
  const pax = passengers.find((p) => p.paxId === newRef);
  if (!pax) throw invalid(`${update.path}/New/PaxRefID`, `PaxRefID ${newRef} names no Pax of DataLists/PaxList.`);
  if (!pax.surname) throw invalid(`${update.path}/New`, "The new passenger details need Individual/Surname.");
  return {
    form: "updatePax",
    currentPaxId: current,
    newPaxId: newRef,
    name: { ...(pax.title ? { title: pax.title } : {}), givenNames: [...pax.givenNames], surname: pax.surname },
  };
}

function reqCursor(parent: Cursor, name: string): Cursor {
  const c = opt(parent, name);
  if (!c) throw invalid(`${parent.path}/${name}`, `UpdatePax needs ${name}: a name correction states the passenger and the corrected details.`);
  return c;
}

/**
 * Seat characteristic codes (PADIS code list 9825, the codes NDC's SeatCharacteristicCode
 * carries). Their descriptions are airline content and are translated (i18n key seat.<code>).
 */
export const SEAT_CHARACTERISTICS = {
  WINDOW: "W",
  AISLE: "A",
  CENTRE: "9",
  EXIT_ROW: "E",
  LEG_SPACE: "L",
  BULKHEAD: "K",
  /** Not allowed for infants: exit rows, by regulation. */
  NO_INFANT: "1A",
  CHARGEABLE: "CH",
} as const;

export type SeatCharacteristic = (typeof SEAT_CHARACTERISTICS)[keyof typeof SEAT_CHARACTERISTICS];

export const ALL_SEAT_CHARACTERISTICS: readonly SeatCharacteristic[] = Object.values(SEAT_CHARACTERISTICS);

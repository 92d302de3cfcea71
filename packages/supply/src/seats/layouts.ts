import type { CabinCode } from "../schedule/flights";

/**
 * Seat layouts per aircraft type. Column groups are separated by aisles, which is what makes a
 * seat a window, aisle or centre seat. Exit rows and extra-legroom rows are the type's own.
 */
export interface CabinLayout {
  cabin: CabinCode;
  firstRow: number;
  lastRow: number;
  /** Column letters per block between aisles, e.g. [["A","B","C"],["D","E","F"]]. */
  blocks: readonly (readonly string[])[];
  exitRows: readonly number[];
  extraLegroomRows: readonly number[];
}

export interface SeatLayout {
  aircraftCode: string;
  cabins: readonly CabinLayout[];
}

const ABC_DEF = [["A", "B", "C"], ["D", "E", "F"]] as const;
const ABC_DEF_HJK = [["A", "B", "C"], ["D", "E", "F"], ["H", "J", "K"]] as const;
const AC_DF = [["A", "C"], ["D", "F"]] as const;
const A_DG_K = [["A"], ["D", "G"], ["K"]] as const;

export const SEAT_LAYOUTS: Readonly<Record<string, SeatLayout>> = {
  "320": {
    aircraftCode: "320",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 3, blocks: AC_DF, exitRows: [], extraLegroomRows: [] },
      { cabin: "ECONOMY", firstRow: 4, lastRow: 30, blocks: ABC_DEF, exitRows: [12, 13], extraLegroomRows: [4, 12, 13] },
    ],
  },
  "32Q": {
    aircraftCode: "32Q",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 5, blocks: AC_DF, exitRows: [], extraLegroomRows: [] },
      { cabin: "ECONOMY", firstRow: 6, lastRow: 35, blocks: ABC_DEF, exitRows: [11, 25], extraLegroomRows: [6, 11, 25] },
    ],
  },
  "789": {
    aircraftCode: "789",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 8, blocks: A_DG_K, exitRows: [], extraLegroomRows: [] },
      { cabin: "ECONOMY", firstRow: 10, lastRow: 40, blocks: ABC_DEF_HJK, exitRows: [10, 28], extraLegroomRows: [10, 28] },
    ],
  },
  "359": {
    aircraftCode: "359",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 10, blocks: A_DG_K, exitRows: [], extraLegroomRows: [] },
      { cabin: "ECONOMY", firstRow: 11, lastRow: 44, blocks: ABC_DEF_HJK, exitRows: [11, 30], extraLegroomRows: [11, 30] },
    ],
  },
  E90: {
    aircraftCode: "E90",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 2, blocks: AC_DF, exitRows: [], extraLegroomRows: [] },
      { cabin: "ECONOMY", firstRow: 3, lastRow: 25, blocks: AC_DF, exitRows: [10], extraLegroomRows: [3, 10] },
    ],
  },
};

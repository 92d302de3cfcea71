import type { CabinCode } from "../schedule/flights";
import { exitsAt, frontOf, rearOf, type CabinComponent } from "./cabin-components";

/**
 * Seat layouts per aircraft type. Column groups are separated by aisles, which is what makes a
 * seat a window, aisle or centre seat. Exit rows and extra-legroom rows are the type's own, and
 * so are the galleys, lavatories and exits around the seats (`components`, listed once here with
 * the layout: the front of the first cabin, every exit row, the rear of the last; a wide body also
 * has them at the front of its economy cabin).
 */
export interface CabinLayout {
  cabin: CabinCode;
  firstRow: number;
  lastRow: number;
  /** Column letters per block between aisles, e.g. [["A","B","C"],["D","E","F"]]. */
  blocks: readonly (readonly string[])[];
  exitRows: readonly number[];
  extraLegroomRows: readonly number[];
  components: readonly CabinComponent[];
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
      { cabin: "BUSINESS", firstRow: 1, lastRow: 3, blocks: AC_DF, exitRows: [], extraLegroomRows: [], components: [...frontOf(1, AC_DF)] },
      { cabin: "ECONOMY", firstRow: 4, lastRow: 30, blocks: ABC_DEF, exitRows: [12, 13], extraLegroomRows: [4, 12, 13], components: [...exitsAt([12, 13], ABC_DEF), ...rearOf(30, ABC_DEF)] },
    ],
  },
  "32Q": {
    aircraftCode: "32Q",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 5, blocks: AC_DF, exitRows: [], extraLegroomRows: [], components: [...frontOf(1, AC_DF)] },
      { cabin: "ECONOMY", firstRow: 6, lastRow: 35, blocks: ABC_DEF, exitRows: [11, 25], extraLegroomRows: [6, 11, 25], components: [...exitsAt([11, 25], ABC_DEF), ...rearOf(35, ABC_DEF)] },
    ],
  },
  "789": {
    aircraftCode: "789",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 8, blocks: A_DG_K, exitRows: [], extraLegroomRows: [], components: [...frontOf(1, A_DG_K)] },
      { cabin: "ECONOMY", firstRow: 10, lastRow: 40, blocks: ABC_DEF_HJK, exitRows: [10, 28], extraLegroomRows: [10, 28], components: [...frontOf(10, ABC_DEF_HJK), ...exitsAt([28], ABC_DEF_HJK), ...rearOf(40, ABC_DEF_HJK)] },
    ],
  },
  "359": {
    aircraftCode: "359",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 10, blocks: A_DG_K, exitRows: [], extraLegroomRows: [], components: [...frontOf(1, A_DG_K)] },
      { cabin: "ECONOMY", firstRow: 11, lastRow: 44, blocks: ABC_DEF_HJK, exitRows: [11, 30], extraLegroomRows: [11, 30], components: [...frontOf(11, ABC_DEF_HJK), ...exitsAt([30], ABC_DEF_HJK), ...rearOf(44, ABC_DEF_HJK)] },
    ],
  },
  E90: {
    aircraftCode: "E90",
    cabins: [
      { cabin: "BUSINESS", firstRow: 1, lastRow: 2, blocks: AC_DF, exitRows: [], extraLegroomRows: [], components: [...frontOf(1, AC_DF)] },
      { cabin: "ECONOMY", firstRow: 3, lastRow: 25, blocks: AC_DF, exitRows: [10], extraLegroomRows: [3, 10], components: [...exitsAt([10], AC_DF), ...rearOf(25, AC_DF)] },
    ],
  },
};

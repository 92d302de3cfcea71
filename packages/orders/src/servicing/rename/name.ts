/** A passenger's name as a correction sets it (24.4 IndividualType's name parts; checked at decode). */
export interface PaxName {
  title?: string;
  givenNames: string[];
  surname: string;
}

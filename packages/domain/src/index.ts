export { openDomain, businessBase, type Domain, type DomainOptions } from "./domain";
export { storedViewKey, storedViewOf, viewEncodes } from "./stored-view";

export { openDomain, businessBase, type Domain, type DomainOptions } from "./domain";
export { storedViewOf, viewEncodes } from "./stored-view";

export * from "./request";
export * from "./decode";
export * from "./view";
export * from "./encode";

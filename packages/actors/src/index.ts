export { ActorSystem, type ActorLimits, type ActorRef, type ActorSystemOptions } from "./system";
export { defineActorKind, type ActorContext, type ActorKind, type Decision, type PersistContext } from "./kind";
export { defineJournaledKind, NEXT_VALUE, type Journaled, type JournaledSpec, type JournaledPersistContext } from "./journaled";
export { appendEvents, readEvents, saveSnapshot, loadSnapshot, type JournalEntry } from "./journal";
export { KeyedLock } from "./keyed-lock";
export { askTogether, jointAsk, type JointAsk } from "./together";

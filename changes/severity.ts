/** The two classes of a change for client code, and the two directions data flows; read by the rules and the change records alike. */
export type Severity = "breaking" | "compatible";

export type Direction = "request" | "response";

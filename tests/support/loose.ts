/**
 * JSON a test reads or edits freely, deep inside: a copy of the description a test changes, an
 * answer's body it asserts on. The description's types would only get in the way there; the
 * assertions are the check.
 */
// biome-ignore lint/suspicious/noExplicitAny: a test's free reading and editing of JSON, checked by its assertions
export type LooseJson = any;

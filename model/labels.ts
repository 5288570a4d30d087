/**
 * The rules of a model label (x-model-label, the specification's `I-A`): its placeholder slug, which the
 * description's create path carries unless a slug map replaces it, and its area's label prefix.
 */

/** The placeholder slug of a label: I-A is i-a. */
export const placeholderSlug = (label: string): string => label.toLowerCase();

/** The area prefix a label starts with: I-A is I's, MC-A is MC's. */
export const labelPrefix = (label: string): string => label.split("-")[0] ?? label;

/**
 * A failed bundle as `npm run bundle` and `npm run build` print it, in the house's `name: message`
 * form: the root, then each problem at its file and line, every line kept (tools/command.ts's
 * runCommand keeps a message's first line only); exit 1.
 */
import { BundleError } from "../tools/bundle-description.ts";

/** Ends the command on a BundleError; any other error is left to the caller. */
export function endOnBundleError(name: string, error: unknown): void {
  if (!(error instanceof BundleError)) return;
  process.stderr.write(`${name}: ${error.message.replace(/^bundle failed for /, "").replace(/\n*$/, "\n")}`);
  process.exit(1);
}

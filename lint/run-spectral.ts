import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Document, Spectral, type ISpectralDiagnostic } from "@stoplight/spectral-core";
// These two are CommonJS whose named exports Node cannot detect; their default is the module.
import parsers from "@stoplight/spectral-parsers";
import { builtins } from "@stoplight/spectral-ruleset-bundler/plugins/builtins";
import { commonjs } from "@stoplight/spectral-ruleset-bundler/plugins/commonjs";
import { bundleAndLoadRuleset } from "@stoplight/spectral-ruleset-bundler/with-loader";
import runtime from "@stoplight/spectral-runtime";
import { buildSpectralFunctions } from "./build-functions.ts";

export const SPECTRAL_RULESET = fileURLToPath(new URL("../.spectral.yaml", import.meta.url));

/**
 * A Spectral loaded with .spectral.yaml, its house function freshly built. The plugins are the
 * ones the Spectral CLI bundles a ruleset with, so both load the OWASP package (CommonJS) alike.
 */
export async function loadSpectral(): Promise<Spectral> {
  await buildSpectralFunctions();
  const spectral = new Spectral();
  spectral.setRuleset(
    await bundleAndLoadRuleset(SPECTRAL_RULESET, { fs, fetch: runtime.fetch }, [builtins(), commonjs()]),
  );
  return spectral;
}

/** Lints a YAML (or JSON) text; `source` names it in the results. */
export function lintText(spectral: Spectral, text: string, source: string): Promise<ISpectralDiagnostic[]> {
  return spectral.run(new Document(text, parsers.Yaml, source));
}

#!/usr/bin/env node
// The tools package's bin in this repository: the same commands as the published package's
// (packages/tools/cli.ts), run from the TypeScript sources through tsx, so that
// `npx @media-service/tools sandbox` and `npx media-service sandbox` work in a clone as they do in
// a project that installed the package, and never ask the registry for a name.
import { register } from "tsx/esm/api";

register();
await import("../cli.ts");

#!/usr/bin/env node
// Entry for `npm start` and the `patchbay` command: installs and builds when needed (with no
// dependencies of its own), then hands over to the built command line.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, checkNode, ensureBuild, ensureDependencies } from "../scripts/bootstrap-lib.mjs";

checkNode();
ensureDependencies();
ensureBuild();

const cli = await import(pathToFileURL(join(ROOT, "dist/server/cli.js")).href);
const code = await cli.main(process.argv.slice(2));
if (typeof code === "number" && code !== 0) process.exitCode = code;

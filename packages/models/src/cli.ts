#!/usr/bin/env node
/** Thin entry for `npm run model -- <command>`: everything testable lives in runCli. */
import { runCli } from './run-cli';

process.exitCode = runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });

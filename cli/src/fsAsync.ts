/**
 * The asynchronous file calls of the CLI's common path (reading plans and input files, walking folders),
 * over Node's callback API: `node:fs/promises` loads about twenty more of Node's own modules, a few ms of
 * every command's start. Same calls, same results, same errors.
 */
import { readdir as readdirCallback, readFile as readFileCallback, stat as statCallback } from 'node:fs';
import { promisify } from 'node:util';

export const stat = promisify(statCallback);
export const readFile = promisify(readFileCallback);
export const readdir = promisify(readdirCallback);

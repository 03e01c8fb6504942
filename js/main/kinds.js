// The filter kinds with their classes: js/shared/kind-table.js (the one kind table; the C++ one is
// generated from it), each row with the class it names, found by that name among
// js/main/classes.js's exports, so a new kind's class needs its line there and nothing here.
// `deserialize` and `kindOf` read it; tests/js/kinds.test.js checks the generated C++ table
// against it and everything that lists kinds against it.
import { KIND_TABLE } from '../shared/kind-table.js';
import * as classes from './classes.js';

/** [number, name, class] per kind. */
// (a row whose class js/main/classes.js does not export has undefined here: tests/js/kinds.test.js names
// the fix, so the shipped code carries no message for a mistake it cannot make)
export const KINDS = KIND_TABLE.map(([number, name, className]) => [number, name, classes[className]]);

/** The [number, name, class] row of kind `number`, or undefined. */
export const kindByNumber = (number) => KINDS.find((k) => k[0] === number);

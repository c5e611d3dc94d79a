// How the catalogue's yes/no flags read (VSF stores them as true/1/'1'/'true' or anything else):
// each value with whether it counts as set. Every reader of such a flag is tested against it.
export const FLAG_VALUES: [unknown, boolean][] = [
  [true, true],
  [1, true],
  ['1', true],
  ['true', true],
  [false, false],
  [0, false],
  ['0', false],
  ['false', false],
  ['', false],
  ['yes', false],
  [2, false],
  [null, false],
  [undefined, false],
]

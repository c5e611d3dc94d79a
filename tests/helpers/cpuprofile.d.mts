// Types of tests/helpers/cpuprofile.mjs for the TypeScript files that import it.
export function sampleTimes(
  profile: { samples: number[]; timeDeltas: number[] },
  capUs: number,
): { self: Map<number, number>; gaps: number }

/**
 * Resolves in a later task, so the browser handles input and paints before the caller goes on:
 * `scheduler.yield()` where the browser has it (the continuation keeps its place ahead of other
 * tasks), else a zero-delay timer.
 */
export function nextTask(): Promise<void> {
  const s = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0))
}

/**
 * How a piece fits, as reviewers answer it, and the summary the product page shows beside the size
 * picker. A product's `fit_summary` holds how many approved reviews gave each answer (written with
 * its rating when a review is moderated). The summary names the answer most reviewers gave, with
 * its share, once at least one reviewer answered; on a tie, true to size is named before a side,
 * and runs small before runs large.
 */
export const FIT_ANSWERS = ['small', 'true_to_size', 'large'] as const
export type FitAnswer = (typeof FIT_ANSWERS)[number]

/** What a shopper reads for each answer (the review form's choices and the review itself). */
export const FIT_LABELS: Record<FitAnswer, string> = {
  small: 'Runs small',
  true_to_size: 'True to size',
  large: 'Runs large',
}

type FitCounts = Partial<Record<FitAnswer, number>>

interface FitSummary {
  answer: FitAnswer
  /** Reviewers who gave the leading answer. */
  count: number
  /** Reviewers who answered at all. */
  total: number
}

/** The counts read from a product document's `fit_summary` (anything else counts as none). */
export function fitCounts(raw: unknown): FitCounts {
  const out: FitCounts = {}
  if (!raw || typeof raw !== 'object') return out
  for (const a of FIT_ANSWERS) {
    const n = (raw as Record<string, unknown>)[a]
    if (typeof n === 'number' && Number.isInteger(n) && n > 0) out[a] = n
  }
  return out
}

/** The leading answer and its share, or null when no reviewer said how the piece fits. */
export function fitSummary(counts: FitCounts): FitSummary | null {
  let total = 0
  let best: FitSummary | null = null
  // True to size first: on a tie with a side, the middle answer is named.
  for (const answer of ['true_to_size', 'small', 'large'] as const) {
    const count = counts[answer] ?? 0
    total += count
    if (count > 0 && (!best || count > best.count)) best = { answer, count, total: 0 }
  }
  return best ? { ...best, total } : null
}

/** The sentence beside the size picker: "Most reviewers say: true to size (4 of 5)". */
export function fitSentence(s: FitSummary): string {
  const label = FIT_LABELS[s.answer].toLowerCase()
  if (s.total === 1) return `One reviewer says: ${label}`
  return s.count * 2 > s.total
    ? `Most reviewers say: ${label} (${s.count} of ${s.total})`
    : `Reviewers are divided; the most say ${label} (${s.count} of ${s.total})`
}

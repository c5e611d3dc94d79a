/**
 * The fit reviewers report, server-rendered beside the size picker: "Most reviewers say: true to
 * size (4 of 5)", linked to the reviews. Nothing when no approved review said how the piece fits.
 */
import { fitCounts, fitSentence, fitSummary } from '../../domain/review-fit'

export function FitNote({ product }: { product: Record<string, unknown> }) {
  const summary = fitSummary(fitCounts(product.fit_summary))
  if (!summary) return null
  return (
    <p className="fit-note" data-testid="fit-summary" data-fit={summary.answer}>
      <a href="#reviews-title">{fitSentence(summary)}</a>
    </p>
  )
}

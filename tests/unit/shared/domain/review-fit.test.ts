import { describe, expect, it } from 'vitest'
import { fitCounts, fitSentence, fitSummary } from '../../../../shared/domain/review-fit'

describe('fit summary', () => {
  it('names the answer most reviewers gave, with its share', () => {
    const s = fitSummary({ small: 2, true_to_size: 1, large: 0 })
    expect(s).toEqual({ answer: 'small', count: 2, total: 3 })
    expect(fitSentence(s!)).toBe('Most reviewers say: runs small (2 of 3)')
  })

  it('names true to size before a side on a tie, and runs small before runs large', () => {
    expect(fitSummary({ small: 2, true_to_size: 2 })?.answer).toBe('true_to_size')
    expect(fitSummary({ small: 1, large: 1 })?.answer).toBe('small')
    expect(fitSentence(fitSummary({ small: 1, large: 1, true_to_size: 1 })!)).toBe(
      'Reviewers are divided; the most say true to size (1 of 3)',
    )
  })

  it('says one reviewer when one answered, and nothing when none did', () => {
    expect(fitSentence(fitSummary({ large: 1 })!)).toBe('One reviewer says: runs large')
    expect(fitSummary({})).toBeNull()
    expect(fitSummary(fitCounts({ small: 0, true_to_size: 0, large: 0 }))).toBeNull()
  })

  it('reads only whole positive counts of the known answers from a stored document', () => {
    expect(fitCounts({ small: 2, large: -1, true_to_size: 1.5, tight: 4 })).toEqual({ small: 2 })
    expect(fitCounts(null)).toEqual({})
    expect(fitCounts('small')).toEqual({})
  })
})

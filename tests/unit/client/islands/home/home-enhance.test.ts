// The home page's timed popup waits for the shopper: its clock starts at their first wheel turn,
// pointer press or key press, never at page load or a script's scrolling.
import { describe, expect, it, vi } from 'vitest'
import { onFirstInteraction } from '../../../../../client/islands/home/home-enhance'

describe('onFirstInteraction', () => {
  it('does nothing until the shopper acts', () => {
    const target = new EventTarget()
    const fn = vi.fn()
    onFirstInteraction(target, fn)
    target.dispatchEvent(new Event('scroll'))
    target.dispatchEvent(new Event('load'))
    expect(fn).not.toHaveBeenCalled()
  })

  it.each(['wheel', 'pointerdown', 'keydown'])('starts on the first %s, once', (kind) => {
    const target = new EventTarget()
    const fn = vi.fn()
    onFirstInteraction(target, fn)
    target.dispatchEvent(new Event(kind))
    target.dispatchEvent(new Event(kind))
    target.dispatchEvent(new Event('keydown'))
    expect(fn).toHaveBeenCalledTimes(1)
  })
})

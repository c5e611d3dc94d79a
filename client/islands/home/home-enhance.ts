/**
 * Home page behaviour on server-rendered markup, without an island (the home page loads as little JS
 * as it can):
 * - the newsletter form posts {email} to /api/ext/mailchimp-subscribe/subscribe
 *   through client/api and shows the result in place;
 * - the home data popups (exit_popup on exit intent on desktop, generic_popup a while after the
 *   shopper's first scroll, tap or key press: never on a page nobody has touched), each at most
 *   once per session; an open popup holds focus until closed (Escape closes it);
 * - the notice after a redirect from an unknown category (/?notice=category-unavailable): the
 *   error notification with OK (text rendered by the server into data-notice), then the
 *   flag is removed from the URL.
 */
import { api } from '../../api'
import { notify } from '../../state/notifications'
import { trapFocus } from '../layout/focus-trap'

/** A plausible email address (the server validates for real). */
export function isEmailLike(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())
}

const SEEN_KEY = 'home-popups-seen'
/** Delay before the generic popup, counted from the shopper's first interaction. */
const GENERIC_POPUP_DELAY_MS = 8000

/** Reads the popups already shown this session. */
export function seenPopups(raw: string | null): Set<string> {
  return new Set((raw ?? '').split(',').filter(Boolean))
}

function markSeen(type: string): boolean {
  try {
    const seen = seenPopups(sessionStorage.getItem(SEEN_KEY))
    if (seen.has(type)) return false
    seen.add(type)
    sessionStorage.setItem(SEEN_KEY, [...seen].join(','))
  } catch {
    // Storage disabled: the popup may show again, which is harmless.
  }
  return true
}

function enhanceNewsletter(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type=email]')
  const status = form.querySelector<HTMLElement>('[data-newsletter-status]')
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')
  if (!input || !status || !button) return
  const show = (message: string, error: boolean) => {
    status.textContent = message
    status.className = error ? 'form-error' : 'form-ok'
    input.setAttribute('aria-invalid', String(error))
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    if (!isEmailLike(input.value)) return show('Please enter a valid email address.', true)
    button.disabled = true
    try {
      const res = await api('/api/ext/mailchimp-subscribe/subscribe', {
        method: 'POST',
        body: { email: input.value.trim() },
      })
      if (res.code >= 200 && res.code < 300) {
        show('Thank you for subscribing! Please check your inbox.', false)
        form.dataset.done = 'true'
        input.value = ''
      } else {
        show(typeof res.result === 'string' ? res.result : 'Subscription failed, please try again.', true)
      }
    } catch {
      show('Subscription failed, please try again.', true)
    } finally {
      button.disabled = false
    }
  })
}

/** Releases the focus of the popup that is open (set while one is). */
let releaseFocus: (() => void) | null = null

function closePopup(el: HTMLElement): void {
  el.hidden = true
  releaseFocus?.()
  releaseFocus = null
}

function openPopup(el: HTMLElement): void {
  if (!markSeen(el.dataset.popup ?? '')) return
  el.hidden = false
  releaseFocus = trapFocus(el, () => closePopup(el))
}

/** True while a dialog, drawer or popup is open: a popup never opens over something in use. */
function dialogOpen(doc: Document): boolean {
  return doc.querySelector('[aria-modal="true"]:not([hidden])') !== null
}

/** Calls `fn` once, on the shopper's first wheel turn, pointer press (touch included) or key press (a script's scrolling does not count). */
export function onFirstInteraction(target: EventTarget, fn: () => void): void {
  const kinds = ['wheel', 'pointerdown', 'keydown'] as const
  const options = { capture: true, passive: true }
  let done = false
  const once = () => {
    if (done) return
    done = true
    for (const k of kinds) target.removeEventListener(k, once, options)
    fn()
  }
  for (const k of kinds) target.addEventListener(k, once, options)
}

function enhancePopups(doc: Document): void {
  for (const el of doc.querySelectorAll<HTMLElement>('[data-popup]')) {
    el.querySelector('[data-popup-close]')?.addEventListener('click', () => closePopup(el))
  }
  const generic = doc.querySelector<HTMLElement>('[data-popup="generic_popup"]')
  if (generic && !seenPopups(sessionStorage.getItem(SEEN_KEY)).has('generic_popup')) {
    onFirstInteraction(doc, () =>
      setTimeout(() => {
        if (!dialogOpen(doc)) openPopup(generic)
      }, GENERIC_POPUP_DELAY_MS),
    )
  }
  const exit = doc.querySelector<HTMLElement>('[data-popup="exit_popup"]')
  if (exit && matchMedia('(min-width: 768px)').matches) {
    const onLeave = (e: MouseEvent) => {
      if (e.clientY > 0 || e.relatedTarget) return
      doc.removeEventListener('mouseout', onLeave)
      if (!dialogOpen(doc)) openPopup(exit)
    }
    doc.addEventListener('mouseout', onLeave)
  }
}

function showNotice(doc: Document): void {
  const el = doc.querySelector<HTMLElement>('[data-notice]')
  if (!el?.dataset.notice) return
  notify({
    type: 'error',
    message: el.dataset.notice,
    action1: { label: el.dataset.ok ?? 'OK' },
    hasNoTimeout: true,
  })
  const url = new URL(window.location.href)
  url.searchParams.delete('notice')
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
}

/** Wires the home page's newsletter form, popups and notice. */
export function enhanceHome(doc: Document = document): void {
  for (const form of doc.querySelectorAll<HTMLFormElement>('form[data-newsletter]')) enhanceNewsletter(form)
  try {
    enhancePopups(doc)
  } catch (err) {
    console.warn('home popups', err)
  }
  // After the notifications island has hydrated (it renders the store's list).
  setTimeout(() => showNotice(doc), 50)
}

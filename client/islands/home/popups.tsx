/**
 * Home popups (home data popups of type exit_popup and generic_popup) and the home notice: after
 * a redirect from an unknown or empty category (/?notice=category-unavailable) the spec's error
 * notification with OK is shown (catalogue §8), and the flag is removed from the URL.
 * Each popup shows at most once per session: the generic one after a short delay, the exit one
 * when the pointer leaves through the top of the window (desktop).
 */
import { useEffect, useState } from 'react'
import { MSG } from '../../../shared/i18n/messages'
import { notify } from '../../state/notifications'
import { defineIsland } from '../define'

export interface PopupData {
  type: 'exit_popup' | 'generic_popup'
  title?: string | null
  text: string
  link?: string | null
  image?: string | null
}

export interface HomeExtrasProps {
  popups: PopupData[]
  /** Delay before the generic popup (ms). */
  genericDelayMs?: number
}

export const NOTICE_CATEGORY_UNAVAILABLE = 'category-unavailable'
const SEEN_KEY = 'home-popups-seen'

function seen(type: string): boolean {
  try {
    return (sessionStorage.getItem(SEEN_KEY) ?? '').split(',').includes(type)
  } catch {
    return false
  }
}

function markSeen(type: string): void {
  try {
    const list = new Set((sessionStorage.getItem(SEEN_KEY) ?? '').split(',').filter(Boolean))
    list.add(type)
    sessionStorage.setItem(SEEN_KEY, [...list].join(','))
  } catch {
    // Storage disabled: the popup may show again, which is harmless.
  }
}

function HomeExtras({ popups, genericDelayMs = 8000 }: HomeExtrasProps) {
  const [open, setOpen] = useState<PopupData | null>(null)

  useEffect(() => {
    const url = new URL(window.location.href)
    if (url.searchParams.get('notice') === NOTICE_CATEGORY_UNAVAILABLE) {
      notify({
        type: 'error',
        message: MSG.offlineRedirectHome,
        action1: { label: MSG.ok },
        hasNoTimeout: true,
      })
      url.searchParams.delete('notice')
      window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
    }
  }, [])

  useEffect(() => {
    const generic = popups.find((p) => p.type === 'generic_popup')
    const exit = popups.find((p) => p.type === 'exit_popup')
    const cleanups: Array<() => void> = []
    if (generic && !seen(generic.type)) {
      const t = setTimeout(() => {
        markSeen(generic.type)
        setOpen((cur) => cur ?? generic)
      }, genericDelayMs)
      cleanups.push(() => clearTimeout(t))
    }
    if (exit && !seen(exit.type) && matchMedia('(min-width: 768px)').matches) {
      const onLeave = (e: MouseEvent) => {
        if (e.clientY > 0 || e.relatedTarget) return
        markSeen(exit.type)
        setOpen((cur) => cur ?? exit)
        document.removeEventListener('mouseout', onLeave)
      }
      document.addEventListener('mouseout', onLeave)
      cleanups.push(() => document.removeEventListener('mouseout', onLeave))
    }
    return () => {
      for (const f of cleanups) f()
    }
  }, [popups, genericDelayMs])

  if (!open) return null
  return (
    <div
      className="popup"
      role="dialog"
      aria-modal="false"
      aria-labelledby="home-popup-title"
      data-testid="home-popup"
    >
      <button type="button" className="popup__close" aria-label="Close popup" onClick={() => setOpen(null)}>
        ×
      </button>
      {open.image ? <img src={open.image} alt="" width={320} height={180} /> : null}
      <h2 id="home-popup-title">{open.title ?? ''}</h2>
      <p>{open.text}</p>
      {open.link ? (
        <a className="btn" href={open.link}>
          Find out more
        </a>
      ) : null}
    </div>
  )
}

export const HomeExtrasIsland = defineIsland('home-extras', HomeExtras)

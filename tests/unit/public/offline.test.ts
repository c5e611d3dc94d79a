// The offline page's own script (public/offline.html), run as a browser runs it: the page the
// service worker answers with for a page not kept offline. It goes home after 3 s unless it is home
// or orders are queued, says how many are queued, and reloads when the connection returns — but
// never once it is on its way home.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { runInNewContext } from 'node:vm'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'

const html = readFileSync(path.join(import.meta.dirname, '../../../public/offline.html'), 'utf8')
const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''

/** An IndexedDB holding the shop's queued orders (not yet transmitted), as the order queue keeps them. */
async function withQueuedOrders(count: number): Promise<IDBFactory> {
  const idb = new IDBFactory()
  const open = idb.open('default-shop', 1)
  open.onupgradeneeded = () => open.result.createObjectStore('default-orders')
  const db = await new Promise<IDBDatabase>((resolve) => {
    open.onsuccess = () => resolve(open.result)
  })
  const store = db.transaction('default-orders', 'readwrite').objectStore('default-orders')
  for (let i = 0; i < count; i++) store.put({ transmited: false }, `order-${i}`)
  await new Promise((resolve) => {
    store.transaction.oncomplete = resolve
  })
  db.close()
  return idb
}

/** Opens the offline page at `pathname`: its script runs with the given IndexedDB (none: absent). */
function openPage(pathname: string, indexedDB?: IDBFactory) {
  const listeners = new Map<string, () => void>()
  const timers: { fn: () => void; ms: number }[] = []
  const location = { pathname, assign: vi.fn(), reload: vi.fn() }
  const elements = new Map<string, { textContent: string; style: { display: string } }>()
  const element = (id: string) => {
    if (!elements.has(id)) elements.set(id, { textContent: '', style: { display: '' } })
    return elements.get(id) as { textContent: string; style: { display: string } }
  }
  const window = {
    indexedDB,
    addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
  }
  runInNewContext(script, {
    window,
    indexedDB,
    location,
    document: { getElementById: element },
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
  })
  return {
    location,
    element,
    /** Runs the timers set so far, as the time passing would. */
    runTimers: () => {
      for (const t of timers.splice(0)) t.fn()
    },
    timers,
    /** The browser's `online` event: the connection is back. */
    online: () => listeners.get('online')?.(),
  }
}

describe('the offline page', () => {
  it('goes home after 3 s when no order is queued', () => {
    const page = openPage('/men')
    expect(page.timers.map((t) => t.ms)).toEqual([3000])
    expect(page.location.assign).not.toHaveBeenCalled()
    page.runTimers()
    expect(page.location.assign).toHaveBeenCalledWith('/')
  })

  it('stays on home: it is home', () => {
    const page = openPage('/')
    expect(page.timers).toEqual([])
  })

  it('reloads when the connection returns while it waits', () => {
    const page = openPage('/men')
    page.online()
    expect(page.location.reload).toHaveBeenCalledTimes(1)
  })

  it('on its way home, the connection returning does not reload it (which would cancel going home)', () => {
    const page = openPage('/men')
    page.runTimers()
    expect(page.location.assign).toHaveBeenCalledWith('/')
    page.online()
    expect(page.location.reload).not.toHaveBeenCalled()
  })

  it('stays and says so when orders are queued', async () => {
    const page = openPage('/men', await withQueuedOrders(2))
    await vi.waitFor(() =>
      expect(page.element('queued').textContent).toBe(
        '2 orders are queued and will be sent when you are back online.',
      ),
    )
    expect(page.element('queued').style.display).toBe('block')
    expect(page.element('message').textContent).toBe('This page is not available in Offline mode.')
    expect(page.timers).toEqual([])
  })
})

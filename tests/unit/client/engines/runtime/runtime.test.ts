import { describe, expect, it, vi } from 'vitest'
import { type ClientRuntime, handleComingOnline } from '../../../../../client/engines/runtime/runtime'
import { isOnline, trackOnlineStatus } from '../../../../../client/state/online'

describe('coming online', () => {
  it('processes the sync queue, then reloads the cart with client state forced, then handles queued orders', async () => {
    const order: string[] = []
    const rt = {
      tasks: { process: vi.fn(async () => void order.push('tasks')) },
      cart: {
        load: vi.fn(async (o: unknown) => void order.push(`cart:${JSON.stringify(o)}`)),
        recheckVolatileStock: vi.fn(async () => void order.push('stock')),
      },
      orders: { handleOnline: vi.fn(async () => void order.push('orders')) },
    } as unknown as ClientRuntime
    await handleComingOnline(rt)
    expect(order).toEqual(['tasks', 'cart:{"forceClientState":true}', 'orders', 'stock'])
  })

  it('the online flag follows the browser events and calls back on online', () => {
    const target = new EventTarget()
    const onOnline = vi.fn()
    const stop = trackOnlineStatus(target as unknown as Window, onOnline)
    target.dispatchEvent(new Event('offline'))
    expect(isOnline.value).toBe(false)
    target.dispatchEvent(new Event('online'))
    expect(isOnline.value).toBe(true)
    expect(onOnline).toHaveBeenCalledTimes(1)
    stop()
    target.dispatchEvent(new Event('offline'))
    expect(isOnline.value).toBe(true)
  })
})

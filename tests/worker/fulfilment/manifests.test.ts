// The day's pickup manifest against the courier stand-in: it covers the parcels booked for pickup,
// each parcel in one manifest only (double clicks, concurrent asks), nothing to manifest is refused
// in words, the courier down or its answer lost never leaves a parcel stranded or manifested twice.
import { env } from 'cloudflare:test'
import { describe, expect, it, vi } from 'vitest'
import { manifestTodaysPickups, printManifestAgain } from '../../../worker/admin/manifests'
import { admin, operator, post } from '../admin/operator'
import {
  courier,
  courierCalls,
  faults,
  ops,
  paidCardOrder,
  ship,
  shipmentsOf,
  withCourierStandIn,
} from './harness'

withCourierStandIn()

async function manifest() {
  const { x, done } = ops()
  try {
    return await manifestTodaysPickups(x, Date.now())
  } finally {
    await done()
  }
}

/** An order paid and booked with the courier: its parcel waits for a manifest. */
async function booked() {
  const o = await paidCardOrder()
  await ship(o.orderNumber)
  const [s] = await shipmentsOf(o.orderId)
  expect(s?.step).toBe('booked')
  return { number: o.orderNumber, awb: s?.awb as string }
}

const manifestOf = async (awb: string) =>
  (
    await env.DB.prepare('SELECT manifest_id FROM shipments WHERE awb = ?')
      .bind(awb)
      .first<{ manifest_id: number | null }>()
  )?.manifest_id

describe("the manifest for today's pickups", () => {
  it('is refused in words when no parcel is booked for pickup', async () => {
    await expect(manifest()).rejects.toMatchObject({ status: 409, message: /^Nothing to manifest/ })
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM courier_manifests').first())?.n).toBe(0)
  })

  it('covers every booked parcel once: a double click makes one manifest, and the courier serves its document', async () => {
    const a = await booked()
    const b = await booked()
    const clicks = await Promise.allSettled([manifest(), manifest()])
    const made = clicks.filter((r) => r.status === 'fulfilled')
    expect(made).toHaveLength(1)
    expect(clicks.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { status: 409, message: expect.stringMatching(/^Nothing to manifest/) },
    })
    const m = (made[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof manifest>>>).value
    expect(m.shipments.map((s) => s.awb).sort()).toEqual([a.awb, b.awb].sort())
    expect(await manifestOf(a.awb)).toBe(m.manifest.id)
    expect(await manifestOf(b.awb)).toBe(m.manifest.id)
    // The link is the stand-in's document, naming both AWBs.
    const doc = await courier.fetch(new Request(m.manifest.url))
    expect(doc.headers.get('content-type')).toBe('application/pdf')
    const text = new TextDecoder().decode(await doc.arrayBuffer())
    expect(text).toContain(a.awb)
    expect(text).toContain(b.awb)
    // Asked again later: nothing left to manifest.
    await expect(manifest()).rejects.toMatchObject({ status: 409 })
    // A parcel booked afterwards goes into a second manifest, alone.
    const c = await booked()
    const second = await manifest()
    expect(second.shipments.map((s) => s.awb)).toEqual([c.awb])
    expect(second.manifest.url).not.toBe(m.manifest.url)
    // Printed again: the same document, through the courier's print call.
    courierCalls.length = 0
    const { x, done } = ops()
    const again = await printManifestAgain(x, m.manifest.id, Date.now())
    await done()
    expect(again.manifest.url).toBe(m.manifest.url)
    expect(courierCalls).toEqual(['POST /v1/external/manifests/print'])
  })

  it('the courier down: nothing is manifested and the parcels wait for the next ask', async () => {
    const a = await booked()
    courier.setDown(true)
    await expect(manifest()).rejects.toMatchObject({ status: 502, message: /Nothing was manifested/ })
    expect(await manifestOf(a.awb)).toBeNull()
    courier.setDown(false)
    const m = await manifest()
    expect(m.shipments.map((s) => s.awb)).toEqual([a.awb])
  })

  it("the courier's answer lost: asked again, its manifest is read back, never a second one", async () => {
    const a = await booked()
    faults.loseAnswerTo = /manifests\/generate/
    await expect(manifest()).rejects.toMatchObject({ status: 502 })
    expect(await manifestOf(a.awb)).toBeNull()
    courierCalls.length = 0
    const m = await manifest()
    // The courier refused a second manifest for the parcel; the shop printed the one it holds.
    expect(courierCalls).toEqual([
      'POST /v1/external/manifests/generate',
      'POST /v1/external/manifests/print',
    ])
    expect(m.shipments.map((s) => s.awb)).toEqual([a.awb])
    const doc = await courier.fetch(new Request(m.manifest.url))
    expect(new TextDecoder().decode(await doc.arrayBuffer())).toContain(a.awb)
  })

  it('a manifest address that is not http(s) is never kept or shown as a link', async () => {
    const a = await booked()
    const real = courier.fetch
    const spy = vi
      .spyOn(courier, 'fetch')
      .mockImplementation(async (req: Request) =>
        req.url.endsWith('/manifests/generate')
          ? Response.json({ status: 1, manifest_url: 'javascript:alert(document.cookie)' })
          : real(req),
      )
    try {
      await expect(manifest()).rejects.toMatchObject({ status: 502 })
    } finally {
      spy.mockRestore()
    }
    expect(await manifestOf(a.awb)).toBeNull()
    expect(
      await env.DB.prepare(
        `SELECT COUNT(*) AS n FROM courier_manifests WHERE manifest_url LIKE 'javascript:%'`,
      ).first('n'),
    ).toBe(0)
    // The parcel is still waiting, and the next ask manifests it.
    expect((await manifest()).shipments.map((s) => s.awb)).toEqual([a.awb])
  })

  it('is asked for by owner or staff from /admin/fulfilment, which lists the manifests; a viewer is refused', async () => {
    const viewer = await operator('viewer')
    const refused = await admin(viewer, '/api/manifests', { body: {} })
    expect(refused.status).toBe(403)
    const staff = await operator('staff')
    const page = await admin(staff, '/fulfilment')
    expect(page.status).toBe(200)
    expect(page.text).toContain('action="/admin/api/manifests"')
    const url = (
      await env.DB.prepare(
        `SELECT manifest_url FROM courier_manifests WHERE status = 'ready' LIMIT 1`,
      ).first<{
        manifest_url: string
      }>()
    )?.manifest_url
    expect(url).toMatch(/^https:\/\/courier-sandbox\.test\/manifests\//)
    expect(page.text).toContain(`href="${url}"`)
    expect((await admin(viewer, '/fulfilment')).text).not.toContain('action="/admin/api/manifests"')
    // The form post from that screen is answered in words on the screen (here: the shop's own
    // environment has no courier configured), never a JSON page.
    const formPost = await post(staff, '/api/manifests', '/admin/fulfilment', [])
    expect(formPost.status).toBe(409)
    expect(formPost.text).toContain('No courier is configured')
    expect(formPost.text).toContain('<html')
  })
})

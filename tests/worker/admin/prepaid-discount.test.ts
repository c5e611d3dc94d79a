// The prepaid discount setting on the COD rules screen: off until set, a percentage with a cap or
// fixed rupees, refused in words beside its field, audited with what it was, not for a viewer.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { prepaidDiscountSetting } from '../../../worker/api/payment/prepaid-discount'
import { admin, operator, post } from './operator'

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM prepaid_discount').run()
})

const save = (who: Awaited<ReturnType<typeof operator>>, fields: [string, string][]) =>
  post(who, '/api/rules/prepaid-discount', '/admin/rules', fields)

describe('the prepaid discount setting', () => {
  it('is off until set; a percentage with a cap is kept in paise, shown and audited', async () => {
    const staff = await operator('staff')
    expect(await prepaidDiscountSetting(env.DB)).toMatchObject({ kind: 'off' })
    const saved = await save(staff, [
      ['kind', 'percent'],
      ['percent', '5'],
      ['cap', '₹1,500'],
    ])
    expect(saved.status).toBe(303)
    expect(await prepaidDiscountSetting(env.DB)).toMatchObject({
      kind: 'percent',
      percent: 5,
      cap_minor: 150_000,
    })
    const screen = await admin(staff, '/rules')
    expect(screen.text).toContain('5 % of the goods, at most ₹1,500')
    // The form offers the setting as it stands: its choice ticked, its amounts filled in.
    const input = (name: string, value: string) =>
      new RegExp(`<input [^>]*name="${name}"[^>]*value="${value}"`).test(screen.text)
    expect(screen.text).toMatch(/<input type="radio" name="kind" checked="" value="percent"\/>/)
    expect(screen.text).not.toMatch(/name="kind" checked="" value="(off|fixed)"/)
    expect([input('percent', '5'), input('cap', '₹1,500.00'), input('fixed', '')]).toEqual([true, true, true])
    expect(
      (
        await save(staff, [
          ['kind', 'fixed'],
          ['fixed', '100'],
        ])
      ).status,
    ).toBe(303)
    expect(await prepaidDiscountSetting(env.DB)).toMatchObject({ kind: 'fixed', fixed_minor: 10_000 })
    const audit = await env.DB.prepare(
      "SELECT before, after FROM admin_audit WHERE target = 'prepaid-discount' ORDER BY id",
    ).all<{ before: string; after: string }>()
    expect(audit.results.map((r) => JSON.parse(r.after).kind)).toEqual(['percent', 'fixed'])
    expect(JSON.parse(audit.results[1]?.before as string)).toMatchObject({
      kind: 'percent',
      cap_minor: 150_000,
    })
  })

  it('refuses a percentage out of range, a cap or amount that is no whole rupees, in words', async () => {
    const staff = await operator('staff')
    for (const [fields, why] of [
      [
        [
          ['kind', 'percent'],
          ['percent', '75'],
          ['cap', '200'],
        ],
        'the percentage is a whole number from 1 to 50',
      ],
      [
        [
          ['kind', 'percent'],
          ['percent', '5'],
          ['cap', ''],
        ],
        'the cap is a whole number of rupees',
      ],
      [
        [
          ['kind', 'fixed'],
          ['fixed', '99.50'],
        ],
        'the amount is a whole number of rupees',
      ],
      [
        [
          ['kind', 'fixed'],
          ['fixed', '-5'],
        ],
        'the amount is a whole number of rupees',
      ],
      [[['kind', 'half']], 'choose no discount, a percentage or a fixed amount'],
    ] as [[string, string][], string][]) {
      const res = await save(staff, fields)
      expect(res.status, JSON.stringify(fields)).toBe(400)
      expect(res.text).toContain(why)
    }
    expect(await prepaidDiscountSetting(env.DB)).toMatchObject({ kind: 'off' })
    const viewer = await operator('viewer')
    expect(
      (
        await save(viewer, [
          ['kind', 'fixed'],
          ['fixed', '100'],
        ])
      ).status,
    ).toBe(403)
    expect(await prepaidDiscountSetting(env.DB)).toMatchObject({ kind: 'off' })
  })
})

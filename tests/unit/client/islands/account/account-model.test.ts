import { describe, expect, it } from 'vitest'
import { safeRedirectPath } from '../../../../../client/engines/session/access-rule'
import { formatServerDate, orderKey } from '../../../../../client/islands/account/account-model'
import { addressToForm, formToAddress } from '../../../../../client/islands/account/address-form'
import { cartTypeIds, lineHref, lineOptions } from '../../../../../client/islands/cart/cart-line-view'
import { bookAddress } from '../../../../helpers/orders'

describe('address book mapping', () => {
  it('round-trips a saved address, keeping its id and two street lines', () => {
    const saved = {
      id: 5,
      ...bookAddress({ telephone: '9845012345' }),
      region: { region: 'Karnataka', region_code: 'KA', region_id: 3 },
      company: 'Acme',
    }
    const form = addressToForm(saved)
    expect(form).toMatchObject({
      streetAddress: '12 MG Road',
      apartmentNumber: 'Flat 4',
      state: 'Karnataka',
      company: 'Acme',
    })
    const back = formToAddress({ ...form, city: ' Mysuru ' }, saved, true)
    expect(back).toMatchObject({
      id: 5,
      city: 'Mysuru',
      street: ['12 MG Road', 'Flat 4'],
      default_shipping: true,
      default_billing: true,
      company: 'Acme',
    })
    expect(back.region?.region_id).toBe(3)
  })

  it('a new address has no id and defaults to India', () => {
    const form = addressToForm(null)
    expect(form.country).toBe('IN')
    expect(formToAddress(form, undefined, false)).not.toHaveProperty('id')
  })

  it('order links use the entity id, else the increment id', () => {
    expect(orderKey({ entity_id: 9, increment_id: '000000009' })).toBe('9')
    expect(orderKey({ increment_id: '000000010' })).toBe('000000010')
  })

  it('only same-origin paths are remembered for after login', () => {
    expect(safeRedirectPath('/my-account/orders')).toBe('/my-account/orders')
    expect(safeRedirectPath('//evil.example')).toBeNull()
    expect(safeRedirectPath('https://evil.example')).toBeNull()
  })
})

describe('cart line view', () => {
  it('shows configurable option labels, else the totals options JSON', () => {
    expect(
      lineOptions({
        sku: 'A-S',
        name: 'A',
        qty: 1,
        product_option: {
          extension_attributes: {
            configurable_item_options: [{ option_id: '93', option_value: 49, label: 'Size', value: 'S' }],
          },
        },
      }),
    ).toEqual([{ label: 'Size', value: 'S' }])
    expect(
      lineOptions({ sku: 'B', name: 'B', qty: 1, totals: { options: '[{"label":"Color","value":"Red"}]' } }),
    ).toEqual([{ label: 'Color', value: 'Red' }])
    expect(lineOptions({ sku: 'C', name: 'C', qty: 1 })).toEqual([])
  })

  it('links a variant line to its product page with the child sku', () => {
    expect(lineHref({ sku: 'TOP-S', parentSku: 'TOP', slug: 'silk-top', name: 'x', qty: 1 })).toBe(
      '/p/TOP/silk-top/TOP-S',
    )
    expect(lineHref({ sku: 'X', name: 'x', qty: 1, url_path: 'women/x.html' })).toBe('/women/x.html')
    expect(lineHref({ sku: 'X', name: 'x', qty: 1 })).toBeNull()
  })

  it('collects product types (simple when unknown)', () => {
    expect(
      cartTypeIds([
        { sku: 'a', name: 'a', qty: 1, type_id: 'virtual' },
        { sku: 'b', name: 'b', qty: 1 },
      ]),
    ).toEqual(['virtual', 'simple'])
  })
})

describe('backend timestamps are shown unambiguously, in India Standard Time', () => {
  it('reads the zone-less UTC form as UTC (not as local time)', () => {
    // 20:00 UTC is 01:30 the next day in India.
    expect(formatServerDate('2026-05-01 20:00:00', 'time')).toBe('2 May 2026, 1:30 AM IST')
    expect(formatServerDate('2026-05-01 20:00:00', 'date')).toBe('2 May 2026')
  })
  it('is empty for a missing or unreadable value', () => {
    expect(formatServerDate(undefined, 'date')).toBe('')
    expect(formatServerDate('soon', 'date')).toBe('')
  })
})

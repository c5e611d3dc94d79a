// The order page's pay-by-link offer: the amount the link asks and, with a prepaid discount, what
// paying now saves (the order's total less the link's amount), in the shop's money format.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PayByLink } from '../../../../../client/islands/order/pay-by-link'
import { formatMinor } from '../../../../../shared/domain/currency'
import { decodeEntities } from '../../../../helpers/html'

const access = { orderNumber: '000000042', accessKey: 'k' }

const offer = (totalMinor: number, orderTotalMinor: number) =>
  decodeEntities(
    renderToString(
      <PayByLink access={access} totalMinor={totalMinor} orderTotalMinor={orderTotalMinor} currency="INR" />,
    ).replace(/<!-- -->/g, ''),
  )

describe('the pay-by-link offer', () => {
  it('says what paying now saves: the order total less the link amount', () => {
    const html = offer(1_186_150, 1_231_150)
    expect(html).toContain(`Pay ${formatMinor(1_186_150, 'INR')} by UPI or card`)
    expect(html).toContain(`You save ${formatMinor(1_231_150 - 1_186_150, 'INR')}.`)
  })

  it('claims no saving when the link asks the whole total', () => {
    const html = offer(99_900, 99_900)
    expect(html).toContain(`Pay ${formatMinor(99_900, 'INR')} by UPI or card`)
    expect(html).not.toContain('save')
  })
})

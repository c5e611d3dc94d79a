// The shop's labelled fields: every control has its label, a required one says so, and an error is
// announced and linked to the control it belongs to.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { EmailField, PasswordField, SelectField } from '../../../../../shared/components/checkout/form-field'
import { FormError } from '../../../../../shared/components/form-error'

const noop = () => undefined

/** The e-mail field's markup. */
const email = (props: { id: string; value: string; error?: string }) =>
  renderToStaticMarkup(<EmailField {...props} onChange={noop} />)

/** The attributes of the first `<tag …>` in the markup. */
function attrs(html: string, tag: string): Record<string, string> {
  const open = html.match(new RegExp(`<${tag}\\b([^>]*)>`))?.[1] ?? ''
  return Object.fromEntries([...open.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
}

describe('form fields', () => {
  it('an e-mail field is labelled, required, typed as an address and filled from the saved address', () => {
    const html = email({ id: 'auth-email', value: 'a@b.in' })
    expect(html).toContain('<label for="auth-email">Email address<span aria-hidden="true"> *</span></label>')
    expect(attrs(html, 'input')).toMatchObject({
      id: 'auth-email',
      name: 'auth-email',
      type: 'email',
      autoComplete: 'email',
      inputMode: 'email',
      value: 'a@b.in',
    })
    expect(html).toMatch(/<input[^>]* required=""/)
    expect(html).not.toContain('aria-invalid')
  })

  it('an error marks the control invalid and points it at the announced message', () => {
    const html = email({ id: 'profile-email', value: 'x', error: 'Please provide a valid e-mail address.' })
    expect(html).toContain('class="field field--error"')
    expect(attrs(html, 'input')).toMatchObject({
      'aria-invalid': 'true',
      'aria-describedby': 'profile-email-error',
    })
    expect(html).toContain(
      '<p id="profile-email-error" class="field__error" role="alert">Please provide a valid e-mail address.</p>',
    )
  })

  it('a password field lets the browser fill the saved password, or offer a new one', () => {
    const current = renderToStaticMarkup(
      <PasswordField id="auth-password" purpose="current" value="" onChange={noop} />,
    )
    expect(current).toContain('<label for="auth-password">Password<span aria-hidden="true"> *</span></label>')
    expect(attrs(current, 'input')).toMatchObject({ type: 'password', autoComplete: 'current-password' })
    const next = renderToStaticMarkup(
      <PasswordField id="password-new" label="New password" purpose="new" value="" onChange={noop} />,
    )
    expect(next).toContain('>New password<')
    expect(attrs(next, 'input')).toMatchObject({ type: 'password', autoComplete: 'new-password' })
  })

  it('a select carries the same label, name and error link as an input', () => {
    const html = renderToStaticMarkup(
      <SelectField
        id="address-country"
        label="Country"
        value="IN"
        options={[
          { value: 'IN', label: 'India' },
          { value: 'GB', label: 'United Kingdom' },
        ]}
        onChange={noop}
        error="This field is required."
        required
      />,
    )
    expect(html).toContain('<label for="address-country">Country<span aria-hidden="true"> *</span></label>')
    expect(attrs(html, 'select')).toMatchObject({
      id: 'address-country',
      name: 'address-country',
      'aria-invalid': 'true',
      'aria-describedby': 'address-country-error',
    })
    expect(html).toContain('<option value="GB">United Kingdom</option>')
    expect(html).toContain('id="address-country-error"')
  })

  it("a form's own error is announced, and nothing stands there while there is none", () => {
    expect(renderToStaticMarkup(<FormError message={null} />)).toBe('')
    expect(renderToStaticMarkup(<FormError message="" />)).toBe('')
    expect(renderToStaticMarkup(<FormError message="Wrong password." testId="auth-error" />)).toBe(
      '<p class="form-error" role="alert" data-testid="auth-error">Wrong password.</p>',
    )
    expect(renderToStaticMarkup(<FormError id="co-7-error" message="Required." />)).toBe(
      '<p id="co-7-error" class="form-error" role="alert">Required.</p>',
    )
  })
})

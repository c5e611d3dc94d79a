/** The shop's form errors in their own module: a page that shows one need not load the form fields. */

/**
 * An error of a whole form, or of a group of choices (a product option), announced when it appears;
 * nothing while there is none.
 */
export function FormError({
  message,
  id,
  testId,
}: {
  message: string | null | undefined
  /** For the control the error describes to point at (aria-describedby). */
  id?: string
  testId?: string
}) {
  return message ? (
    <p id={id} className="form-error" role="alert" data-testid={testId}>
      {message}
    </p>
  ) : null
}

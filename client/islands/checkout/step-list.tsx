/** The checkout's progress list: sections done can be revisited, the current one is marked. */
import type { CheckoutStep } from './checkout-validation'

const STEPS: { id: CheckoutStep; title: string }[] = [
  { id: 'personal', title: 'Personal details' },
  { id: 'shipping', title: 'Shipping' },
  { id: 'payment', title: 'Payment' },
  { id: 'review', title: 'Review order' },
]

export function StepList({
  step,
  onGoTo,
  skip = [],
}: {
  step: CheckoutStep
  onGoTo: (step: CheckoutStep) => void
  /** Sections this checkout does not have (shipping, for a cart of virtual goods only). */
  skip?: readonly CheckoutStep[]
}) {
  const steps = STEPS.filter((s) => !skip.includes(s.id))
  const stepIndex = steps.findIndex((s) => s.id === step)
  return (
    <ol className="checkout__steps">
      {steps.map((s, i) => (
        <li key={s.id} className={s.id === step ? 'is-active' : i < stepIndex ? 'is-done' : ''}>
          {i < stepIndex ? (
            <button type="button" className="btn btn--link" onClick={() => onGoTo(s.id)}>
              {i + 1}. {s.title}
            </button>
          ) : (
            <span aria-current={s.id === step ? 'step' : undefined}>
              {i + 1}. {s.title}
            </span>
          )}
        </li>
      ))}
    </ol>
  )
}

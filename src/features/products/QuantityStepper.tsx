import { useT } from '../../i18n/useT'

interface QuantityStepperProps {
  /** names the group, e.g. "Quantity of Classic Tee to return" */
  label: string
  value: number
  max: number
  onChange: (value: number) => void
}

/**
 * − value + within 1..max. At a bound the button stays focusable with aria-disabled, so keyboard
 * focus is not thrown to the page when the last allowed press disables it.
 */
export function QuantityStepper({ label, value, max, onChange }: QuantityStepperProps) {
  const t = useT()
  const atMin = value <= 1
  const atMax = value >= max
  return (
    <div className="stepper" role="group" aria-label={label}>
      <button
        type="button"
        className="stepper__button"
        aria-label={t('products.decrease')}
        aria-disabled={atMin}
        onClick={() => {
          if (!atMin) onChange(value - 1)
        }}
      >
        <span aria-hidden="true">−</span>
      </button>
      <output className="stepper__value" aria-live="polite">
        {t('products.stepperValue', { value, max })}
      </output>
      <button
        type="button"
        className="stepper__button"
        aria-label={t('products.increase')}
        aria-disabled={atMax}
        onClick={() => {
          if (!atMax) onChange(value + 1)
        }}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  )
}

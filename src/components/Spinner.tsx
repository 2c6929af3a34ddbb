/** A busy indicator announced to screen readers by its label. */
export function Spinner({ label, size = 'normal' }: { label: string; size?: 'normal' | 'small' }) {
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label}>
      <span className="spinner__ring" aria-hidden="true" />
    </span>
  )
}

import { Link } from 'react-router-dom'
import { useAppSelector } from '../app/hooks'
import { paths } from '../config/paths'
import { selectOrder } from '../features/returnFlow/returnFlowSlice'
import { safeUrl } from '../shop/sanitizeConfig'
import { useHeadingFocus } from './useHeadingFocus'

/** A later step that is not built yet: its title and the verified order's items, so the flow can be walked. */
export function StepPlaceholder({ title, next }: { title: string; next?: { to: string; label: string } }) {
  const order = useAppSelector(selectOrder)
  const headingRef = useHeadingFocus()
  if (!order) return null
  return (
    <section aria-labelledby="step-title">
      <Link className="back-link" to={paths.start.build()}>
        Back
      </Link>
      <h1 id="step-title" className="screen-title" ref={headingRef} tabIndex={-1}>
        {title}
      </h1>
      <p className="muted">Order {order.order_name}</p>
      <ul className="item-list">
        {order.line_items.map((item) => {
          const image = item.product_src ? safeUrl(item.product_src) : null
          return (
            <li key={item.id} className="item">
              {image ? <img className="item__image" src={image} alt="" width={56} height={56} /> : <span className="item__image" />}
              <span className="item__text">
                <span className="item__title">{item.title}</span>
                {item.variant_title ? <span className="muted">{item.variant_title}</span> : null}
                <span className="muted">Quantity {item.quantity}</span>
              </span>
            </li>
          )
        })}
      </ul>
      {next ? (
        <Link className="button button--primary button--block" to={next.to}>
          {next.label}
        </Link>
      ) : null}
    </section>
  )
}

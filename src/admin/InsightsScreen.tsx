import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router-dom'
import type { Money } from '../../contract/api'
import type { Insights } from '../../contract/staff'
import { formatMoney, readMinor, sumMoney } from '../../contract/money'
import { Spinner } from '../components/Spinner'
import { changedParams, useInsightsQuery } from './api'
import { DayField } from './Fields'
import { formatDay } from './format'
import { useConsoleTitle } from './useConsoleTitle'
import { ErrorAlert } from './ErrorAlert'

interface Bar {
  label: string
  /** what the bar's length shows */
  size: number
  /** what the bar says beside it */
  text: string
}

/** Bars for the eye; the table beside it says the same for everyone (the chart is hidden from screen readers). */
function BarChart({ bars }: { bars: Bar[] }) {
  const largest = Math.max(...bars.map((bar) => bar.size), 0)
  return (
    <div className="bar-chart" aria-hidden="true">
      {bars.map((bar) => (
        <div key={bar.label} className="bar-chart__row">
          <span className="bar-chart__label">{bar.label}</span>
          <span className="bar-chart__track">
            <span
              className="bar-chart__bar"
              style={{ width: `${largest > 0 ? Math.max((bar.size / largest) * 100, bar.size > 0 ? 1 : 0) : 0}%` }}
            />
          </span>
          <span className="bar-chart__value">{bar.text}</span>
        </div>
      ))}
    </div>
  )
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="console-card insights__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="insights__pair">{children}</div>
    </section>
  )
}

interface TallyRow {
  key: string
  name: string
  count: number
  value: Money
}

/** Units by a name (reasons, products): bars by units, and a table of units and value beside them. */
function TallyFigure({
  id,
  title,
  caption,
  first,
  rows,
}: {
  id: string
  title: string
  caption: string
  first: string
  rows: TallyRow[]
}) {
  return (
    <Section id={id} title={title}>
      <BarChart bars={rows.map((row) => ({ label: row.name, size: row.count, text: String(row.count) }))} />
      <table className="console-money insights__table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col">Units</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.name}</th>
              <td>{row.count}</td>
              <td>{formatMoney(row.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  )
}

/** A figure's size for its bar: minor units, exact (a bar of 0.29 is never 0.28999). */
const amountOf = (money: Money) => readMinor(money) ?? 0

/**
 * Returns by reason and the most returned products, of the returns asked for in a chosen period;
 * and what the shop kept and refunded, of the money that moved in it (refunds issued, credit
 * issued, new items sent).
 */
export function InsightsScreen() {
  const [params, setParams] = useSearchParams()
  const from = params.get('from') ?? undefined
  const to = params.get('to') ?? undefined
  const insights = useInsightsQuery({ ...(from ? { from } : {}), ...(to ? { to } : {}) })
  const heading = useRef<HTMLHeadingElement>(null)
  useConsoleTitle('Insights')
  useEffect(() => {
    heading.current?.focus()
  }, [])
  const choose = (name: 'from' | 'to', value: string) => setParams(changedParams(params, { [name]: value }))
  const data = insights.data
  return (
    <section aria-labelledby="insights-title">
      <div className="console__title-row">
        <h1 id="insights-title" ref={heading} tabIndex={-1}>
          Insights
        </h1>
      </div>
      <div className="console-filters insights__period">
        <DayField
          id="insights-from"
          label="From"
          value={from ?? data?.from ?? ''}
          onChange={(day) => choose('from', day)}
        />
        <DayField id="insights-to" label="To" value={to ?? data?.to ?? ''} onChange={(day) => choose('to', day)} />
      </div>
      {insights.error ? (
        <ErrorAlert error={insights.error} focus={false} />
      ) : !data ? (
        <Spinner label="Loading insights" />
      ) : (
        <Figures data={data} />
      )}
    </section>
  )
}

function Figures({ data }: { data: Insights }) {
  const { outcomes } = data
  const kept = [
    { name: 'Exchanges', value: outcomes.exchanges },
    { name: 'New items bought with credit', value: outcomes.upsells },
    { name: 'Store credit', value: outcomes.store_credit },
  ]
  const currency = outcomes.refunded.currency_code
  // Summed once, in minor units of the shop's currency, and shown with its decimals.
  const keptMoney = sumMoney(
    kept.map((row) => row.value),
    currency,
  )
  const keptTotal = amountOf(keptMoney)
  const all = keptTotal + amountOf(outcomes.refunded)
  return (
    <>
      <p className="insights__summary" role="status">
        {data.returns === 1 ? '1 return' : `${data.returns} returns`} from {formatDay(data.from)} to{' '}
        {formatDay(data.to)}
        {all > 0
          ? `. Settled in that time: ${formatMoney(keptMoney)} kept by the shop (${Math.round((keptTotal / all) * 100)}%), ${formatMoney(outcomes.refunded)} refunded.`
          : '.'}
      </p>
      <TallyFigure
        id="reasons-title"
        title="Return reasons"
        caption="Return reasons, by units returned"
        first="Reason"
        rows={data.reasons.map((row) => ({ key: row.reason_id, name: row.label, count: row.count, value: row.value }))}
      />
      <TallyFigure
        id="products-title"
        title="Most returned products"
        caption="The ten most returned products, by units returned"
        first="Product"
        rows={data.products.map((row) => ({ key: row.title, name: row.title, count: row.count, value: row.value }))}
      />
      <Section id="revenue-title" title="Revenue kept and refunded">
        <BarChart
          bars={[...kept, { name: 'Refunded', value: outcomes.refunded }].map((row) => ({
            label: row.name,
            size: amountOf(row.value),
            text: formatMoney(row.value),
          }))}
        />
        <table className="console-money insights__table">
          <caption className="visually-hidden">Revenue kept by the shop and refunded</caption>
          <tbody>
            {kept.map((row) => (
              <tr key={row.name}>
                <th scope="row">{row.name}</th>
                <td>{formatMoney(row.value)}</td>
              </tr>
            ))}
            <tr className="console-money__total">
              <th scope="row">Kept by the shop</th>
              <td>{formatMoney(keptMoney)}</td>
            </tr>
            <tr>
              <th scope="row">Refunded</th>
              <td>{formatMoney(outcomes.refunded)}</td>
            </tr>
          </tbody>
        </table>
      </Section>
    </>
  )
}

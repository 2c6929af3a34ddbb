import { useLingui } from '@lingui/react'
// The same component @lingui/react's Trans renders, from its own module: the start bundle (which
// has no message with markup) then leaves it to the later screens' chunks (1 KB).
import { TransNoContext } from '@lingui/react/server'
import type { ReactElement } from 'react'
import type { MessageId } from './i18n'
import type { MessageValues } from './useT'

interface TProps {
  id: MessageId
  values?: MessageValues
  /** elements for the message's `<0>…</0>` tags, e.g. `[<strong />]` */
  components: ReactElement[]
}

/** A message with markup in it ("Order <0>#1001</0>"): the words translated, the elements ours. */
export function T({ id, values, components }: TProps) {
  const { i18n } = useLingui()
  return <TransNoContext id={id} values={values} components={{ ...components }} lingui={{ i18n }} />
}

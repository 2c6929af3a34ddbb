import type { ReactNode } from 'react'

/** An error the shopper must see; announced at once (role="alert"), and able to take the focus. */
export function ErrorMessage({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <p className="error-message" role="alert" id={id} tabIndex={-1}>
      {children}
    </p>
  )
}

import type { ReactNode } from 'react'

/** An error the shopper must see; announced at once (role="alert"). */
export function ErrorMessage({ children, id }: { children: ReactNode; id?: string }) {
  return (
    <p className="error-message" role="alert" id={id}>
      {children}
    </p>
  )
}

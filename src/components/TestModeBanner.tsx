/** Shown while the portal runs with testMode=1 (portal-spec.md §2). */
export function TestModeBanner() {
  return (
    <div className="test-mode-banner" role="note">
      Test Mode
    </div>
  )
}

export function PoweredBy() {
  return (
    <footer className="powered-by">
      Powered by <strong>Rebound</strong>
    </footer>
  )
}

/** Shown while a `config` override restyles the portal (PRODUCT.md §6). */
export function PreviewMarker() {
  return (
    <div className="preview-marker" role="note" aria-label="Preview: this portal shows a configuration override">
      Preview
    </div>
  )
}

/**
 * Runs `run` after the next frame is drawn: in a task queued from that frame's animation-frame
 * callback. For what a step does on arrival that its first paint need not wait for (the heading's
 * focus, the tab's title): the click that moved on is answered by that paint, not after them
 * (docs/decisions/0098-server-bound-steps.md). Returns a function that cancels what has not run.
 */
export function afterFrame(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

import { useEffect } from 'react'
import type { ShopConfig } from './shopConfig'

function setFavicon(href: string) {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
  if (!link) {
    link = document.createElement('link')
    link.rel = 'icon'
    document.head.append(link)
  }
  link.href = href
}

/** Applies the shop's document title, favicon and button colours to the page. */
export function useBranding(config: ShopConfig | null) {
  useEffect(() => {
    if (!config) return
    if (config.document_title_text) document.title = config.document_title_text
    if (config.favicon_src) setFavicon(config.favicon_src)
    // Set through the CSSOM: values were checked as colours, and a CSP without inline styles allows it.
    const root = document.documentElement.style
    root.setProperty('--button-bg', config.button_color)
    root.setProperty('--button-fg', config.button_text_color)
  }, [config])
}

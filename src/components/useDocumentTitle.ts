import { useShop } from '../shop/useShop'
import { useTitle } from './useTitle'

/**
 * Names the screen in the browser's tab and history, before the shop's title ("Why are you
 * returning the Classic Tee? – Demo Store"), so a shopper with several tabs, or a screen reader
 * announcing the page, knows which step this is. Leaving the screen puts the shop's title back.
 */
export function useDocumentTitle(title: string) {
  const { document_title_text: shopTitle } = useShop()
  useTitle(shopTitle ? `${title} – ${shopTitle}` : title)
}

import { useOutletContext } from 'react-router-dom'
import type { ShopConfig } from './shopConfig'

/** The loaded shop configuration, inside the portal's shell (which waits for it). */
export function useShop(): ShopConfig {
  return useOutletContext<ShopConfig>()
}

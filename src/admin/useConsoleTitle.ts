import { useTitle } from '../components/useTitle'

/** The back office's tab title: the screen's name, then the console's ("Review · Returns back office"). */
export function useConsoleTitle(screen: string) {
  useTitle(`${screen} · Returns back office`)
}

import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function ExchangeScreen() {
  return <StepPlaceholder title="Exchange this item" />
}

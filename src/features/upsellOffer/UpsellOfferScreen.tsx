import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function UpsellOfferScreen() {
  return <StepPlaceholder title="Exchange for something new" />
}

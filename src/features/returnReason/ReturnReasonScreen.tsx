import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function ReturnReasonScreen() {
  return <StepPlaceholder title="Why are you returning this item?" />
}

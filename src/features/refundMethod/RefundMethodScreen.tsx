import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function RefundMethodScreen() {
  return <StepPlaceholder title="How would you like your refund?" />
}

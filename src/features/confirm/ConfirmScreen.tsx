import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function ConfirmScreen() {
  return <StepPlaceholder title="Confirm your return" />
}

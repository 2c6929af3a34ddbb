import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function ReturnInstructionScreen() {
  return <StepPlaceholder title="Your return instructions" />
}

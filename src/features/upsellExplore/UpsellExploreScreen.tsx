import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function UpsellExploreScreen() {
  return <StepPlaceholder title="Find something new" />
}

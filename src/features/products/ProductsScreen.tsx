import { StepPlaceholder } from '../../components/StepPlaceholder'

export default function ProductsScreen() {
  return <StepPlaceholder title="Choose the items to return" />
}

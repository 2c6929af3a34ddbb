import { render, screen } from '@testing-library/react'
import { HelpText } from './HelpText'

describe('HelpText', () => {
  test('each e-mail address is a mailto: link, without the punctuation that ends the sentence', () => {
    const { container } = render(
      <p>
        <HelpText text="Write to help@shop.example. Or (returns@shop.example), or call 0800 123." />
      </p>,
    )
    expect(container).toHaveTextContent('Write to help@shop.example. Or (returns@shop.example), or call 0800 123.')
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      'mailto:help@shop.example',
      'mailto:returns@shop.example',
    ])
  })

  test('text without an address stays text', () => {
    render(<HelpText text="Call us on 0800 123 456" />)
    expect(screen.queryByRole('link')).not.toBeInTheDocument()
    expect(screen.getByText('Call us on 0800 123 456')).toBeInTheDocument()
  })
})

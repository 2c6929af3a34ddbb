/** An e-mail address in the shop's words; what ends a sentence (".", ")") is not part of it. */
const EMAIL = /([^\s@()<>]+@[^\s@()<>]+\.[^\s@()<>.,;:!?]+)/

/**
 * The shop's help text with each e-mail address in it as a mailto: link that never breaks inside
 * ("Need help? Write to help@demo-store.example").
 */
export function HelpText({ text }: { text: string }) {
  return text.split(EMAIL).map((part, index) =>
    index % 2 ? (
      <a key={index} className="help-email" href={`mailto:${part}`}>
        {part}
      </a>
    ) : (
      part
    ),
  )
}

import { safeUrl } from './sanitizeConfig'

test.each([
  ['https://cdn.example.com/logo.svg', 'https://cdn.example.com/logo.svg'],
  ['http://cdn.example.com/a b.png', 'http://cdn.example.com/a%20b.png'],
  ['/demo-assets/logo.svg', 'http://localhost/demo-assets/logo.svg'],
  ['javascript:alert(1)', null],
  ['JaVaScRiPt:alert(1)', null],
  [' javascript:alert(1)', null],
  ['data:image/png;base64,AAAA', null],
  ['vbscript:msgbox', null],
  ['file:///etc/passwd', null],
  ['', null],
  ['https://', null],
])('safeUrl(%j) is %j', (value, expected) => {
  expect(safeUrl(value, 'http://localhost/')).toBe(expected)
})

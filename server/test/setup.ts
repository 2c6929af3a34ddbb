// A fresh PGlite takes a second or two to start, more on a busy CI machine.
jest.setTimeout(30_000)

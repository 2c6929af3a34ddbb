import type { AuditEntry } from '../../contract/staff'
import { auditSentence } from './auditWords'

/** An entry of the owner's, as the audit log answers it. */
const entry = (kind: string, subject: string | null, detail: Record<string, unknown>): AuditEntry => ({
  id: '1',
  at: '2026-11-27T10:00:00.000Z',
  actor: { kind: 'staff', id: 's1', label: 'owner@demo.example' },
  address: '203.0.113.9',
  kind,
  subject,
  detail,
})

test.each([
  [entry('staff.invited', 'agent@demo.example', { role: 'agent' }), 'invited agent@demo.example as agent'],
  [
    entry('staff.role_changed', 'agent@demo.example', { before: 'agent', after: 'admin' }),
    'changed the role of agent@demo.example: agent → admin',
  ],
  [entry('staff.removed', 'agent@demo.example', { role: 'agent' }), 'removed agent@demo.example (agent)'],
  [entry('staff.invite_accepted', 'agent@demo.example', { role: 'agent' }), 'accepted the invite as agent'],
  [
    entry('invite.withdrawn', 'agent@demo.example', { role: 'agent' }),
    'withdrew the invite of agent@demo.example as agent',
  ],
  [
    entry('shop.review_limit_changed', null, { before: null, after: '150.00' }),
    'changed the agents’ review limit: none → 150.00',
  ],
  [entry('return.note_added', 'r-1', { return_name: '#1001-R1', length: 24 }), 'wrote a note on #1001-R1'],
  [entry('return.cancelled', 'r-1', { return_name: '#1001-R1' }), 'cancelled #1001-R1'],
  [entry('return.closed', 'r-1', { return_name: '#1001-R1', reason: 'Parcel lost' }), 'closed #1001-R1: Parcel lost'],
  [
    entry('email.resent', 'r-1', { kind: 'created', email_subject: 'Your return #1001-R1 is registered' }),
    'resent the e-mail “Your return #1001-R1 is registered”',
  ],
  [entry('something.new', 'x', {}), 'did something.new (x)'],
])('%#: an entry reads as a sentence', (given, words) => {
  expect(auditSentence(given)).toBe(`owner@demo.example ${words}`)
})

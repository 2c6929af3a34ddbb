import { Type } from '@sinclair/typebox'
import {
  EmailResent,
  ReturnDetail,
  StaffClose,
  StaffEndRefused,
  StaffNote,
  StaffReturnParams,
} from '../../../contract/staff'
import { addNote, endShopReturn, resendEmail } from '../services/staffReturnActions'
import { replies, routes } from './typed'

const MessageParams = Type.Object({ id: Type.String({ pattern: '^msg_[0-9a-f]{32}$' }) })

/**
 * Staff's daily work on one return (docs/back-office.md): a note, cancelling, closing (decision
 * 0083), and sending an e-mail to its shopper again. Each answers the return as it reads now (the
 * resend: the new e-mail).
 */
export const staffReturnActionRoutes = routes((app, context) => {
  app.post(
    '/returns/:id/notes',
    {
      config: { staffAction: 'returns.note' },
      schema: { params: StaffReturnParams, body: StaffNote, response: replies({ 200: ReturnDetail }) },
    },
    async (request) =>
      addNote(context, { staff: request.staff, address: request.ip }, request.params.id, request.body.text),
  )

  app.post(
    '/returns/:id/cancel',
    {
      config: { staffAction: 'returns.cancel' },
      schema: { params: StaffReturnParams, response: replies({ 200: ReturnDetail, 409: StaffEndRefused }) },
    },
    async (request) =>
      endShopReturn(context, { staff: request.staff, address: request.ip }, request.params.id, {
        state: 'cancelled',
        reason: null,
      }),
  )

  app.post(
    '/returns/:id/close',
    {
      config: { staffAction: 'returns.cancel' },
      schema: {
        params: StaffReturnParams,
        body: StaffClose,
        response: replies({ 200: ReturnDetail, 409: StaffEndRefused }),
      },
    },
    async (request) =>
      endShopReturn(context, { staff: request.staff, address: request.ip }, request.params.id, {
        state: 'closed',
        reason: request.body.reason.trim(),
      }),
  )

  app.post(
    '/emails/:id/resend',
    {
      config: { staffAction: 'emails.resend' },
      schema: { params: MessageParams, response: replies({ 200: EmailResent }) },
    },
    async (request) => resendEmail(context, { staff: request.staff, address: request.ip }, request.params.id),
  )
})

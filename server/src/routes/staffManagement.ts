/**
 * The shop's staff, managed by its owners (docs/back-office.md, "Roles"; decision 0081): listed,
 * invited by e-mail with a role (an invite withdrawn while pending), their role changed, reset,
 * removed; and the amount agents may decide reviews up to. Signed in, `staff.manage` only.
 */
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import {
  InviteWithdrawal,
  NewStaffInvite,
  ReviewLimitChange,
  StaffLinkSent,
  StaffList,
  StaffMemberParams,
  StaffRoleChange,
} from '../../../contract/staff'
import {
  changeReviewLimit,
  changeStaffRole,
  inviteStaff,
  removeStaffMember,
  resetStaff,
  staffList,
  withdrawStaffInvite,
  type Change,
} from '../services/staffManagement'
import { replies, routes } from './typed'

const changeOf = (request: FastifyRequest): Change => ({
  staff: request.staff,
  address: request.ip,
  origin: `${request.protocol}://${request.host}`,
})

export const staffManagementRoutes = routes((app, context) => {
  const manage = { staffAction: 'staff.manage' } as const

  app.get('/staff', { config: manage, schema: { response: replies({ 200: StaffList }) } }, async (request) =>
    staffList(context, request.staff.shop),
  )

  app.post(
    '/staff/invites',
    { config: manage, schema: { body: NewStaffInvite, response: replies({ 201: StaffLinkSent }) } },
    async (request, reply) => {
      const { link } = await inviteStaff(context, changeOf(request), request.body)
      return reply.code(201).send({ ...(await staffList(context, request.staff.shop)), link })
    },
  )

  // POST with the e-mail in the body, not in the address: addresses end up in access logs.
  app.post(
    '/staff/invites/withdraw',
    { config: manage, schema: { body: InviteWithdrawal, response: replies({ 200: StaffList }) } },
    async (request) => {
      await withdrawStaffInvite(context, changeOf(request), request.body.email)
      return staffList(context, request.staff.shop)
    },
  )

  app.put(
    '/staff/review-limit',
    { config: manage, schema: { body: ReviewLimitChange, response: replies({ 200: StaffList }) } },
    async (request) => {
      await changeReviewLimit(context, changeOf(request), request.body)
      return staffList(context, request.staff.shop)
    },
  )

  app.put(
    '/staff/:id/role',
    {
      config: manage,
      schema: { params: StaffMemberParams, body: StaffRoleChange, response: replies({ 200: StaffList }) },
    },
    async (request) => {
      await changeStaffRole(context, changeOf(request), request.params.id, request.body.role)
      return staffList(context, request.staff.shop)
    },
  )

  app.post(
    '/staff/:id/reset',
    { config: manage, schema: { params: StaffMemberParams, response: replies({ 200: StaffLinkSent }) } },
    async (request) => {
      const { link } = await resetStaff(context, changeOf(request), request.params.id)
      return { ...(await staffList(context, request.staff.shop)), link }
    },
  )

  app.delete(
    '/staff/:id',
    { config: manage, schema: { params: StaffMemberParams, response: replies({ 204: Type.Null() }) } },
    async (request, reply) => {
      await removeStaffMember(context, changeOf(request), request.params.id)
      return reply.code(204).send(null)
    },
  )
})

/**
 * The audit log's page (docs/back-office.md, "The audit log"): the shop's entries, newest first,
 * filtered, a page at a time; the people it names, for the filter; and every entry the filters
 * take as CSV, an export that is itself written to the log. Never a route that changes an entry.
 */
import { AuditExportQuery, AuditPage, AuditPeople, AuditQuery, ReturnsCsv } from '../../../contract/staff'
import { auditPage, auditPeople, exportAudit, staffAuthor } from '../services/audit'
import { replies, routes } from './typed'

export const staffAuditRoutes = routes((app, context) => {
  app.get(
    '/audit',
    {
      config: { staffAction: 'audit.read' },
      schema: { querystring: AuditQuery, response: replies({ 200: AuditPage }) },
    },
    async (request) => auditPage(context, request.staff.shop, request.query),
  )

  app.get(
    '/audit/people',
    { config: { staffAction: 'audit.read' }, schema: { response: replies({ 200: AuditPeople }) } },
    async (request) => auditPeople(context, request.staff.shop),
  )

  app.get(
    '/audit.csv',
    {
      config: { staffAction: 'audit.read' },
      schema: { querystring: AuditExportQuery, response: replies({ 200: ReturnsCsv }) },
    },
    async (request, reply) => {
      const { filename, csv } = await exportAudit(context, request.staff.shop, request.query, staffAuthor(request))
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv)
    },
  )
})

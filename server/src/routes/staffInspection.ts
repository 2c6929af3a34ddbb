import { Type } from '@sinclair/typebox'
import {
  Inspection,
  InspectionPreview,
  InspectionRequest,
  ReceiveFound,
  ReceiveQuery,
  StaffReturnParams,
} from '../../../contract/staff'
import { staffAuthor } from '../services/audit'
import { inspect, previewInspection, receive } from '../services/inspection'
import { staffPhotoRoutes } from './staffPhotos'
import { replies, routes } from './typed'

/** Receiving and inspection (docs/lifecycle.md): find a return by its code, inspect its items. */
export const staffInspectionRoutes = routes((app, context) => {
  app.get(
    '/receive',
    {
      config: { staffAction: 'returns.receive' },
      schema: { querystring: ReceiveQuery, response: replies({ 200: ReceiveFound }) },
    },
    async (request) => receive(context, request.staff.shop, request.query.code),
  )

  app.post(
    '/returns/:id/inspection/preview',
    {
      config: { staffAction: 'returns.receive' },
      schema: { params: StaffReturnParams, body: InspectionRequest, response: replies({ 200: InspectionPreview }) },
    },
    async (request) => previewInspection(context, request.staff.shop, request.params.id, request.body),
  )

  app.post(
    '/returns/:id/inspection',
    {
      config: { staffAction: 'returns.receive' },
      schema: {
        params: StaffReturnParams,
        body: InspectionRequest,
        response: replies({ 200: Type.Array(Inspection) }),
      },
    },
    async (request) => inspect(context, request.staff, request.params.id, request.body, staffAuthor(request)),
  )

  // A plugin of its own: its image parser must not reach the console's JSON routes.
  void app.register(staffPhotoRoutes, { context })
})

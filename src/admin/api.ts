import { createApi, fetchBaseQuery, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react'
import type { RETURN_SORTS, RETURN_STATES, RETURN_VIEWS, REVIEW_STATES, StaffAction } from '../../contract/constants'
import type { ShopPolicy } from '../../contract/policy'
import type {
  ApiKeyList,
  ConnectionTest,
  EmailResent,
  StaffClose,
  StaffNote,
  CreatedApiKey,
  Insights,
  InsightsQuery,
  ReturnCounts,
  ReturnDetail,
  ReturnList,
  ReviewDecided,
  ReviewDecision,
  NewApiKey,
  ReviewQueue,
  SetStoreConnection,
  SignIn,
  StaffPolicy,
  StaffSession,
  StaffShop,
  StaffItemsMoved,
  StaffStateChange,
  StoreConnectionAnswer,
  StoreConnectionView,
  SupportSession,
  InviteAcceptance,
  NewStaffInvite,
  ReviewLimitChange,
  StaffLinkSent,
  StaffList,
  StaffRoleChange,
} from '../../contract/staff'
import type {
  CreatedWebhook,
  DeliveryList,
  EmailDetail,
  EmailList,
  EngineActionList,
  EngineActionsQuery,
  NewWebhook,
  WebhookList,
} from '../../contract/events'

/** Where a flagged return's review stands: waiting, approved or rejected. */
export type ReviewState = (typeof REVIEW_STATES)[number]

/** The list's search, filters and page, as in the console's address (shareable between staff). */
export interface ReturnsArgs {
  q?: string
  state?: (typeof RETURN_STATES)[number]
  from?: string
  to?: string
  reason?: string
  review?: ReviewState
  after?: string
  /** one of the list's views (docs/back-office.md, "Views"); all when absent */
  view?: (typeof RETURN_VIEWS)[number]
  /** newest first when absent */
  sort?: (typeof RETURN_SORTS)[number]
}

/** The list's search and filters as a query string (for the list and its CSV export). */
export const queryOf = (args: ReturnsArgs) => changedParams(new URLSearchParams(), { ...args }).toString()

/** `params` with each change made: a value set, an empty one removed (the address keeps only what is chosen). */
export function changedParams(params: URLSearchParams, changes: Record<string, string | undefined>): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value)
    else next.delete(name)
  }
  return next
}

// Absolute: fetch outside a page (tests on Node) takes no relative address.
const fetchFromApi = fetchBaseQuery({
  baseUrl: new URL('/admin/api/', window.location.href).href,
  credentials: 'same-origin',
})

/**
 * Same origin: the session cookie goes with each call. A 401 anywhere means the session is over
 * (idle, signed out in another tab): the session is asked again, and the console shows sign-in.
 */
const baseQuery: typeof fetchFromApi = async (args, api, extra) => {
  const result = await fetchFromApi(args, api, extra)
  const url = typeof args === 'string' ? args : args.url
  if (result.error?.status === 401 && url !== 'session') api.dispatch(staffApi.util.invalidateTags(['Session']))
  return result
}

/** The back office's API (docs/back-office.md). */
export const staffApi = createApi({
  reducerPath: 'staffApi',
  baseQuery,
  tagTypes: [
    'Session',
    'Returns',
    'Return',
    'Emails',
    'Webhooks',
    'EngineActions',
    'Reviews',
    'Policy',
    'ApiKeys',
    'StoreConnection',
    'Staff',
  ],
  endpoints: (build) => ({
    session: build.query<StaffSession, void>({ query: () => 'session', providesTags: ['Session'] }),
    signIn: build.mutation<StaffSession, SignIn>({
      query: (body) => ({ url: 'session', method: 'POST', body }),
      // Only a sign-in that worked: a refused one stays on the form with its message.
      invalidatesTags: (result) => (result ? ['Session', 'Returns', 'Return'] : []),
    }),
    signOut: build.mutation<null, void>({
      query: () => ({ url: 'session', method: 'DELETE' }),
      invalidatesTags: ['Session'],
    }),
    returns: build.query<ReturnList, ReturnsArgs>({
      query: (args) => `returns?${queryOf(args)}`,
      providesTags: ['Returns'],
    }),
    /** How many returns each view holds under the list's search and filters (its tabs say it). */
    returnCounts: build.query<ReturnCounts, ReturnsArgs>({
      query: (args) => `return-counts?${queryOf(args)}`,
      providesTags: ['Returns'],
    }),
    shop: build.query<StaffShop, void>({ query: () => 'shop' }),
    insights: build.query<Insights, InsightsQuery>({
      query: (period) => `insights?${new URLSearchParams(period).toString()}`,
      providesTags: ['Returns'],
    }),
    returnDetail: build.query<ReturnDetail, string>({
      query: (id) => `returns/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Return', id }],
    }),
    supportSession: build.query<SupportSession, string>({
      query: (reference) => `support/${encodeURIComponent(reference)}`,
      // A reference is opened once; the code behind it never changes.
      keepUnusedDataFor: 0,
    }),
    moveItems: build.mutation<StaffItemsMoved, { id: string; change: StaffStateChange }>({
      query: ({ id, change }) => ({ url: `returns/${encodeURIComponent(id)}/status`, method: 'POST', body: change }),
      invalidatesTags: (_result, _error, { id }) => [
        'Returns',
        { type: 'Return', id },
        'Emails',
        'Webhooks',
        'EngineActions',
      ],
    }),
    reviews: build.query<ReviewQueue, void>({ query: () => 'reviews', providesTags: ['Reviews'] }),
    decideReviews: build.mutation<ReviewDecided, ReviewDecision>({
      query: (body) => ({ url: 'reviews', method: 'POST', body }),
      // Skipped ones too: someone else decided them, and the screens should say so.
      invalidatesTags: (result, _error, { return_ids }) =>
        result
          ? [
              'Reviews',
              'Returns',
              'Emails',
              'Webhooks',
              'EngineActions',
              ...return_ids.map((id) => ({ type: 'Return' as const, id })),
            ]
          : [],
    }),
    policy: build.query<StaffPolicy, void>({ query: () => 'policy', providesTags: ['Policy'] }),
    savePolicy: build.mutation<StaffPolicy, ShopPolicy>({
      query: (body) => ({ url: 'policy', method: 'PUT', body }),
      // The answer is the policy as saved: it replaces the cache without asking again.
      async onQueryStarted(_policy, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          void dispatch(staffApi.util.upsertQueryData('policy', undefined, data))
        } catch {
          // A refusal leaves the saved policy as it was; the form shows why.
        }
      },
    }),
    emails: build.query<EmailList, string | undefined>({
      query: (returnId) => (returnId ? `emails?return_id=${encodeURIComponent(returnId)}` : 'emails'),
      providesTags: ['Emails'],
    }),
    email: build.query<EmailDetail, string>({
      query: (id) => `emails/${encodeURIComponent(id)}`,
      providesTags: ['Emails'],
    }),
    webhooks: build.query<WebhookList, void>({ query: () => 'webhooks', providesTags: ['Webhooks'] }),
    addWebhook: build.mutation<CreatedWebhook, NewWebhook>({
      query: (body) => ({ url: 'webhooks', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Webhooks'] : []),
    }),
    removeWebhook: build.mutation<null, string>({
      query: (id) => ({ url: `webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Webhooks'],
    }),
    enableWebhook: build.mutation<WebhookList, { id: string; enabled: boolean }>({
      query: ({ id, enabled }) => ({
        url: `webhooks/${encodeURIComponent(id)}/enabled`,
        method: 'PUT',
        body: { enabled },
      }),
      invalidatesTags: ['Webhooks'],
    }),
    deliveries: build.query<DeliveryList, string>({
      query: (id) => `webhooks/${encodeURIComponent(id)}/deliveries`,
      providesTags: ['Webhooks'],
    }),
    redeliver: build.mutation<null, string>({
      query: (id) => ({ url: `deliveries/${encodeURIComponent(id)}/redeliver`, method: 'POST' }),
      invalidatesTags: ['Webhooks'],
    }),
    engineActions: build.query<EngineActionList, EngineActionsQuery>({
      query: (args) => `engine-actions?${changedParams(new URLSearchParams(), { ...args }).toString()}`,
      providesTags: ['EngineActions'],
    }),
    retryEngineAction: build.mutation<null, string>({
      query: (id) => ({ url: `engine-actions/${encodeURIComponent(id)}/retry`, method: 'POST' }),
      // A refusal too: the action moved on meanwhile (done, or under way), and the list should say so.
      invalidatesTags: ['EngineActions'],
    }),
    apiKeys: build.query<ApiKeyList, void>({ query: () => 'api-keys', providesTags: ['ApiKeys'] }),
    createApiKey: build.mutation<CreatedApiKey, NewApiKey>({
      query: (body) => ({ url: 'api-keys', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['ApiKeys'] : []),
    }),
    revokeApiKey: build.mutation<null, string>({
      query: (id) => ({ url: `api-keys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ApiKeys'],
    }),
    addNote: build.mutation<ReturnDetail, { id: string } & StaffNote>({
      query: ({ id, text }) => ({ url: `returns/${encodeURIComponent(id)}/notes`, method: 'POST', body: { text } }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Return', id }] : []),
    }),
    /** Cancel (no reason) or close (with one) a return (decision 0083). */
    endReturn: build.mutation<
      ReturnDetail,
      { id: string; end: 'cancel' } | ({ id: string; end: 'close' } & StaffClose)
    >({
      query: (args) => ({
        url: `returns/${encodeURIComponent(args.id)}/${args.end}`,
        method: 'POST',
        ...(args.end === 'close' ? { body: { reason: args.reason } } : {}),
      }),
      invalidatesTags: (result, _error, { id }) =>
        result ? ['Returns', { type: 'Return', id }, 'Emails', 'Webhooks', 'EngineActions'] : [],
    }),
    resendEmail: build.mutation<EmailResent, string>({
      query: (id) => ({ url: `emails/${encodeURIComponent(id)}/resend`, method: 'POST' }),
      invalidatesTags: (result) => (result ? ['Emails'] : []),
    }),
    storeConnection: build.query<StoreConnectionAnswer, void>({
      query: () => 'store-connection',
      providesTags: ['StoreConnection'],
    }),
    setStoreConnection: build.mutation<StoreConnectionView, SetStoreConnection>({
      query: (body) => ({ url: 'store-connection', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['StoreConnection'] : []),
    }),
    testStoreConnection: build.mutation<ConnectionTest, void>({
      query: () => ({ url: 'store-connection/test', method: 'POST' }),
      invalidatesTags: ['StoreConnection'],
    }),
    removeStoreConnection: build.mutation<null, void>({
      query: () => ({ url: 'store-connection', method: 'DELETE' }),
      invalidatesTags: ['StoreConnection'],
    }),
    staff: build.query<StaffList, void>({ query: () => 'staff', providesTags: ['Staff'] }),
    inviteStaff: build.mutation<StaffLinkSent, NewStaffInvite>({
      query: (body) => ({ url: 'staff/invites', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Staff'] : []),
    }),
    changeRole: build.mutation<StaffList, { id: string } & StaffRoleChange>({
      query: ({ id, role }) => ({ url: `staff/${encodeURIComponent(id)}/role`, method: 'PUT', body: { role } }),
      invalidatesTags: ['Staff', 'Session'],
    }),
    resetStaff: build.mutation<StaffLinkSent, string>({
      query: (id) => ({ url: `staff/${encodeURIComponent(id)}/reset`, method: 'POST' }),
      invalidatesTags: ['Staff', 'Session'],
    }),
    removeStaff: build.mutation<null, string>({
      query: (id) => ({ url: `staff/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Staff', 'Session'],
    }),
    setReviewLimit: build.mutation<StaffList, ReviewLimitChange>({
      query: (body) => ({ url: 'staff/review-limit', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['Staff'] : []),
    }),
    acceptInvite: build.mutation<StaffSession, InviteAcceptance>({
      query: (body) => ({ url: 'invite', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Session', 'Returns', 'Return'] : []),
    }),
  }),
})

export const {
  useSessionQuery,
  useSignInMutation,
  useSignOutMutation,
  useReturnsQuery,
  useReturnCountsQuery,
  useReturnDetailQuery,
  useMoveItemsMutation,
  useReviewsQuery,
  useDecideReviewsMutation,
  usePolicyQuery,
  useSavePolicyMutation,
  useSupportSessionQuery,
  useShopQuery,
  useInsightsQuery,
  useEmailsQuery,
  useEmailQuery,
  useWebhooksQuery,
  useAddWebhookMutation,
  useRemoveWebhookMutation,
  useEnableWebhookMutation,
  useDeliveriesQuery,
  useRedeliverMutation,
  useEngineActionsQuery,
  useRetryEngineActionMutation,
  useApiKeysQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useStoreConnectionQuery,
  useSetStoreConnectionMutation,
  useTestStoreConnectionMutation,
  useRemoveStoreConnectionMutation,
  useStaffQuery,
  useInviteStaffMutation,
  useChangeRoleMutation,
  useResetStaffMutation,
  useRemoveStaffMutation,
  useSetReviewLimitMutation,
  useAcceptInviteMutation,
  useAddNoteMutation,
  useEndReturnMutation,
  useResendEmailMutation,
} = staffApi

/**
 * Whether the signed-in staff member's role may do `action` (the session says its actions). A
 * session without the list (a server before roles) may do everything, as it could then.
 */
export function useCan(): (action: StaffAction) => boolean {
  const actions = useSessionQuery().data?.actions
  return (action) => !actions || actions.includes(action)
}

/** The API's own words for a refusal, else one for the kind of failure. */
export function errorText(error: unknown): string {
  const failure = error as FetchBaseQueryError | undefined
  if (failure && typeof failure.status === 'number') {
    const data = failure.data as { message?: unknown } | undefined
    if (typeof data?.message === 'string') return data.message
    return `The server answered ${failure.status}. Please try again.`
  }
  return 'The server cannot be reached. Check the connection and try again.'
}

/** Whether the failure means the session is over (or never began). */
export const signedOut = (error: unknown) => (error as FetchBaseQueryError | undefined)?.status === 401

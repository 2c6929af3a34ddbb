/**
 * A return's instructions and its label (docs/lifecycle.md): what to do, in the shopper's
 * language; what goes in the parcel (kept items stay out); the address, label link and QR code,
 * unless nothing is sent back or the shop has not approved the return yet.
 */
import type { InstructionItem, ReturnInstructions, ReturnInstructionsAnswer, ReturnOrder } from '../../../contract/api'
import type { PortalContext } from '../context'
import { withLines } from '../domain/addressLines'
import { qrCodeValue, renderLabelPdf, renderQrSvg } from '../domain/label'
import { shopperReview, waitsOrRejected } from '../domain/review'
import { labelSignatureValid, signLabel, signStatus, type TokenClaims } from '../domain/token'
import { findOrderById } from '../storage/orders'
import { findReturn, type ReturnRecord } from '../storage/returns'
import { notFound, Refusal } from './refusal'

/** What to do, in the portal's languages (Accept-Language); English for any other. */
const STEPS: Record<string, string[]> = {
  en: [
    'Pack the items in a parcel, in their original packaging if you still have it.',
    'Print the label and stick it on the parcel, or show the QR code at a drop-off point.',
    'Drop the parcel off within 14 days. We will e-mail you when it arrives.',
  ],
  de: [
    'Verpacken Sie die Artikel in einem Paket, wenn möglich in der Originalverpackung.',
    'Drucken Sie das Etikett aus und kleben Sie es auf das Paket, oder zeigen Sie den QR-Code bei einer Annahmestelle.',
    'Geben Sie das Paket innerhalb von 14 Tagen ab. Wir schicken Ihnen eine E-Mail, sobald es angekommen ist.',
  ],
  fr: [
    'Emballez les articles dans un colis, dans leur emballage d’origine si vous l’avez encore.',
    'Imprimez l’étiquette et collez-la sur le colis, ou présentez le code QR dans un point de dépôt.',
    'Déposez le colis sous 14 jours. Nous vous enverrons un e-mail à son arrivée.',
  ],
  es: [
    'Empaquete los artículos en un paquete, en su embalaje original si aún lo tiene.',
    'Imprima la etiqueta y péguela en el paquete, o muestre el código QR en un punto de entrega.',
    'Entregue el paquete en un plazo de 14 días. Le enviaremos un correo electrónico cuando llegue.',
  ],
}
/** Some items kept, some sent: the parcel holds only the items sent back. */
const STEPS_SOME_KEPT: Record<string, string[]> = {
  en: [
    'Pack only the items to send back in a parcel, in their original packaging if you still have it. Keep the others: they are refunded without coming back.',
    STEPS.en![1]!,
    STEPS.en![2]!,
  ],
  de: [
    'Verpacken Sie nur die Artikel, die zurückgehen, in einem Paket, wenn möglich in der Originalverpackung. Die anderen behalten Sie: Sie werden erstattet, ohne dass Sie sie zurücksenden.',
    STEPS.de![1]!,
    STEPS.de![2]!,
  ],
  fr: [
    'Emballez seulement les articles à renvoyer dans un colis, dans leur emballage d’origine si vous l’avez encore. Gardez les autres : ils sont remboursés sans être renvoyés.',
    STEPS.fr![1]!,
    STEPS.fr![2]!,
  ],
  es: [
    'Empaquete solo los artículos que devuelve, en su embalaje original si aún lo tiene. Quédese con los demás: se reembolsan sin que tenga que enviarlos.',
    STEPS.es![1]!,
    STEPS.es![2]!,
  ],
}
/** Every item kept: no parcel, no label, no drop-off. */
const STEPS_ALL_KEPT: Record<string, string[]> = {
  en: ['Keep the items: there is nothing to pack, print or drop off. Your refund is on its way.'],
  de: [
    'Behalten Sie die Artikel: Sie müssen nichts verpacken, ausdrucken oder abgeben. Ihre Erstattung ist unterwegs.',
  ],
  fr: ['Gardez les articles : rien à emballer, à imprimer ni à déposer. Votre remboursement est en route.'],
  es: ['Quédese con los artículos: no tiene que empaquetar, imprimir ni entregar nada. Su reembolso está en camino.'],
}
/** Waiting for review: nothing is sent before the shop approves (docs/lifecycle.md). */
const STEPS_REVIEW: Record<string, string[]> = {
  en: [
    'Keep the items for now: please do not send anything yet.',
    'The shop is checking your return. It will e-mail you its answer, with your label and drop-off code if it accepts the return.',
  ],
  de: [
    'Behalten Sie die Artikel vorerst: Bitte senden Sie noch nichts zurück.',
    'Der Shop prüft Ihre Rücksendung. Sie erhalten seine Antwort per E-Mail, mit Versandetikett und Abgabecode, wenn er die Rücksendung annimmt.',
  ],
  fr: [
    'Gardez les articles pour le moment : n’envoyez rien encore.',
    'La boutique examine votre retour. Elle vous enverra sa réponse par e-mail, avec votre étiquette et votre code de dépôt si elle accepte le retour.',
  ],
  es: [
    'Quédese con los artículos por ahora: no envíe nada todavía.',
    'La tienda está revisando su devolución. Le enviará su respuesta por correo electrónico, con la etiqueta y el código de entrega si la acepta.',
  ],
}
/** Rejected: nothing to send. */
const STEPS_REJECTED: Record<string, string[]> = {
  en: [
    'The shop did not accept this return, so there is nothing to send. If you have questions, please contact the shop.',
  ],
  de: [
    'Der Shop hat diese Rücksendung nicht angenommen, Sie müssen also nichts zurücksenden. Bei Fragen wenden Sie sich bitte an den Shop.',
  ],
  fr: [
    'La boutique n’a pas accepté ce retour : il n’y a donc rien à envoyer. Pour toute question, contactez la boutique.',
  ],
  es: [
    'La tienda no aceptó esta devolución, así que no hay nada que enviar. Si tiene preguntas, póngase en contacto con la tienda.',
  ],
}
/** Cancelled or closed by the shop (decision 0083): nothing to send, the label no longer works. */
const STEPS_ENDED: Record<'cancelled' | 'closed', Record<string, string[]>> = {
  cancelled: {
    en: ['The shop cancelled this return: please do not send anything. Its label no longer works.'],
    de: [
      'Der Shop hat diese Rücksendung storniert: Bitte senden Sie nichts zurück. Das Versandetikett ist nicht mehr gültig.',
    ],
    fr: ['La boutique a annulé ce retour : n’envoyez rien. Son étiquette n’est plus valable.'],
    es: ['La tienda canceló esta devolución: no envíe nada. Su etiqueta ya no es válida.'],
  },
  closed: {
    en: ['The shop closed this return: there is nothing more to do. If you have questions, please contact the shop.'],
    de: [
      'Der Shop hat diese Rücksendung abgeschlossen: Es ist nichts weiter zu tun. Bei Fragen wenden Sie sich bitte an den Shop.',
    ],
    fr: ['La boutique a clôturé ce retour : il n’y a plus rien à faire. Pour toute question, contactez la boutique.'],
    es: [
      'La tienda cerró esta devolución: no hay nada más que hacer. Si tiene preguntas, póngase en contacto con la tienda.',
    ],
  },
}
const stepsIn = (steps: Record<string, string[]>, lang: string | null) =>
  lang !== null && Object.hasOwn(steps, lang) ? steps[lang]! : steps.en!

/** The return's items as the instructions list them; a return stored before keep-item returns keeps nothing. */
function instructionItems(order: ReturnOrder | null): InstructionItem[] {
  return (order?.items ?? []).map((item) => ({
    line_item_id: item.line_item_id,
    title: item.title,
    variant_title: item.variant_title,
    quantity: item.quantity,
    keep: item.keep === true,
  }))
}

/** Nothing goes in a parcel when the return has items and every one is kept. */
const nothingToSend = (items: readonly InstructionItem[]) => items.length > 0 && items.every((item) => item.keep)

/** The instructions and how long the shopper's browser may keep them. */
export interface Instructions {
  body: ReturnInstructionsAnswer
  /** the answer changes when staff decide a review: never kept then */
  cacheable: boolean
}

/** The instructions of return `returnId`, for the token's order only (another order's is not found). */
export async function instructionsFor(
  context: Pick<PortalContext, 'db' | 'shops' | 'secret' | 'now' | 'limits'>,
  claims: TokenClaims,
  returnId: string,
  lang: string | null,
): Promise<Instructions> {
  const found = await findReturn(context.db, returnId)
  // Another order's return is as absent as a return that does not exist.
  if (!found || found.order_id !== claims.orderId) throw notFound('No such return for this order.')
  const shop = await context.shops.find(claims.shopId)
  if (!shop) throw notFound('No such return for this order.')
  const items = instructionItems(found.return_order)
  if (found.ended)
    return {
      cacheable: false,
      body: {
        return_id: found.id,
        return_name: found.name,
        steps: stepsIn(STEPS_ENDED[found.ended], lang),
        items,
        nothing_to_send: true,
        status_token: signStatus(context.secret, found.id),
      },
    }
  const { review } = shopperReview(found)
  if (review && (review.state === 'pending' || review.state === 'rejected'))
    return {
      cacheable: false,
      body: {
        return_id: found.id,
        return_name: found.name,
        steps: stepsIn(review.state === 'pending' ? STEPS_REVIEW : STEPS_REJECTED, lang),
        items,
        review: { ...review, state: review.state },
        status_token: signStatus(context.secret, found.id),
      },
    }
  if (nothingToSend(items))
    return {
      cacheable: true,
      body: {
        return_id: found.id,
        return_name: found.name,
        steps: stepsIn(STEPS_ALL_KEPT, lang),
        items,
        nothing_to_send: true,
        // The status page follows a kept item's refund too.
        status_token: signStatus(context.secret, found.id),
      },
    }
  const expires = Math.floor(context.now().getTime() / 1000) + context.limits.labelTtlSeconds
  const code = qrCodeValue(found.id)
  const body: ReturnInstructions = {
    return_id: found.id,
    return_name: found.name,
    steps: stepsIn(items.some((item) => item.keep) ? STEPS_SOME_KEPT : STEPS, lang),
    items,
    address: withLines(shop.return_address),
    label_url: `/portal-registration/returns/${encodeURIComponent(found.id)}/label.pdf?expires=${expires}&signature=${signLabel(context.secret, found.id, expires)}`,
    qr_svg: await renderQrSvg(code),
    qr_code_value: code,
    status_token: signStatus(context.secret, found.id),
  }
  return { cacheable: true, body }
}

/** The label PDF behind its signed link, and the file name it is offered under. */
export async function labelOf(
  context: Pick<PortalContext, 'db' | 'shops' | 'secret' | 'now'>,
  returnId: string,
  link: { expires: number; signature: string },
): Promise<{ pdf: Uint8Array; fileName: string }> {
  const invalid = () => notFound('This label link is not valid or has expired.')
  const valid = labelSignatureValid(context.secret, returnId, link.expires, link.signature, context.now())
  const found = valid ? await findReturn(context.db, returnId) : null
  if (!found) throw invalid()
  if (found.ended)
    throw new Refusal(409, {
      error: `return_${found.ended}`,
      message:
        found.ended === 'cancelled'
          ? 'The shop cancelled this return: its label no longer works. Please do not send the parcel.'
          : 'The shop closed this return: its label no longer works.',
    })
  if (waitsOrRejected(found))
    throw new Refusal(409, {
      error: 'not_approved',
      message:
        found.review === 'pending'
          ? 'This return is waiting for the shop’s review: its label comes once it is approved.'
          : 'The shop did not accept this return: it has no label.',
    })
  const pdf = await labelFor(context, found)
  if (!pdf) throw invalid()
  return { pdf, fileName: `return-label-${found.name.replace(/[^A-Za-z0-9-]/g, '')}.pdf` }
}

async function labelFor(context: Pick<PortalContext, 'db' | 'shops'>, found: ReturnRecord): Promise<Uint8Array | null> {
  const order = await findOrderById(context.db, found.order_id)
  const shop = order ? await context.shops.find(order.shop_id) : null
  // The label lists what is in the parcel: kept items stay out, and a return that sends nothing has no label.
  const sent = instructionItems(found.return_order).filter((item) => !item.keep)
  if (!order || !shop || nothingToSend(instructionItems(found.return_order))) return null
  return renderLabelPdf({
    returnName: found.name,
    qrValue: qrCodeValue(found.id),
    from: { orderName: order.name, email: order.email_key, address: order.shipping_address },
    to: shop.return_address,
    shopName: shop.config.document_title_text ?? shop.id,
    items: sent.map((item) => ({ title: item.title, variantTitle: item.variant_title, quantity: item.quantity })),
    createdAt: new Date(found.created_at),
  })
}

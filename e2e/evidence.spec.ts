import type { Locator, Page } from '@playwright/test'
import sharp from 'sharp'
import { PHOTO_MAX_BYTES } from '../contract/constants'
import type { ReturnOrder, ReturnRequest } from '../contract/api'
import { expect, expectAccessible, startReturn, test } from './fixtures'
import {
  chooseExchange,
  chooseItems,
  chooseRefundMethod,
  continueButton,
  declineUpsell,
  expectStep,
  isPhotoUpload,
  isSubmit,
  MUG,
  openStart,
  TEE,
  uploadPhoto,
} from './steps'

/** The image has loaded and been decoded: a real picture, not a broken-image icon. */
async function expectPicture(image: Locator) {
  await expect(image).toBeVisible()
  await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
}

/** #1001 from a fresh demo shop to the return-reason step of one item. */
async function reasonStepOf1001(page: Page, resetDemoShops: () => Promise<void>, title: string, lineItemId: string) {
  await resetDemoShops()
  await openStart(page)
  await startReturn(page, '#1001', 'jane@example.com')
  await chooseItems(page, [{ title }])
  await expectStep(page, `/return-item/${lineItemId}/return-reason`, `Why are you returning the ${title}?`)
}

test('a damaged mug with a photo: asked for, uploaded, previewed on the reason and confirm steps, kept over a reload, submitted', async ({
  page,
  resetDemoShops,
}) => {
  await reasonStepOf1001(page, resetDemoShops, 'Ceramic Mug', MUG)
  await page.getByRole('radio', { name: 'Arrived damaged', exact: true }).check()
  await page.getByRole('textbox', { name: 'Tell us more (required)' }).fill('The rim is chipped')
  await continueButton(page).click()
  await expect(page.getByRole('alert')).toHaveText('Add at least 1 photo to continue.')
  await expect(page.getByLabel('Add photos')).toBeFocused()

  await uploadPhoto(page)
  const preview = page.getByRole('img', { name: 'Your photo 1 of the Ceramic Mug' })
  await expectPicture(preview)
  await expect(page.getByRole('alert')).toBeHidden()
  await expectAccessible(page)

  // The photo is on the server: after a reload its preview comes back from there.
  await page.reload()
  await expectStep(page, `/return-item/${MUG}/return-reason`, 'Why are you returning the Ceramic Mug?')
  await expectPicture(preview)
  await continueButton(page).click()

  await declineUpsell(page)
  await chooseRefundMethod(page, 'Original payment method')
  await expectStep(page, '/confirm', 'Check and confirm your return')
  const item = page.getByRole('list', { name: 'Your items' }).getByRole('listitem').first()
  await expect(item).toContainText('Reason: Arrived damaged')
  await expectPicture(item.getByRole('img', { name: 'Photo 1 of the Ceramic Mug' }))
  await expectAccessible(page)

  const submitted = page.waitForRequest(isSubmit)
  const answered = page.waitForResponse((response) => isSubmit(response.request()))
  await page.getByRole('button', { name: 'Submit return' }).click()
  const body = (await submitted).postDataJSON() as ReturnRequest
  expect(body.items).toEqual([
    expect.objectContaining({ reason_id: 'damaged', photo_ids: [expect.stringMatching(/^[A-Za-z0-9_-]{22}$/)] }),
  ])
  expect((await answered).status()).toBe(201)
  expect(((await (await answered).json()) as ReturnOrder).items[0]).toMatchObject({
    reason_label: 'Arrived damaged',
    comment: 'The rim is chipped',
  })
  await expectStep(page, '/return-instruction', 'Your return is registered')
})

test('a sub-reason: "Not as described" opens its options, a wrong file is refused, and the chosen option goes on', async ({
  page,
  resetDemoShops,
}) => {
  await reasonStepOf1001(page, resetDemoShops, 'Classic Tee', TEE)
  await page.getByRole('radio', { name: 'Not as described', exact: true }).check()
  const options = page.getByRole('group', { name: 'Not as described: which fits best?' })
  await expect(options.getByRole('radio', { name: 'Wrong item sent' })).toBeVisible()
  await continueButton(page).click()
  await expect(page.getByRole('alert')).toHaveText('Choose the option that fits best to continue.')
  await expect(options.getByRole('radio', { name: 'Colour differs from photos' })).toBeFocused()

  await options.getByRole('radio', { name: 'Wrong item sent' }).check()
  // Not an image: refused in the browser, said for that file.
  await page
    .getByLabel('Add photos')
    .setInputFiles({ name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') })
  await expect(page.getByRole('alert')).toHaveText(
    '“receipt.txt” is not a photo we can take. Choose a JPEG, PNG or WebP image.',
  )
  await expectAccessible(page)

  await options.getByRole('radio', { name: 'Colour differs from photos' }).check()
  await expect(page.getByLabel('Add photos')).toBeHidden()
  await continueButton(page).click()
  await chooseExchange(page, TEE, 'Classic Tee', 'Size L')
  await expectStep(page, '/confirm', 'Check and confirm your return')
  await expect(page.getByRole('list', { name: 'Your items' }).getByRole('listitem').first()).toContainText(
    'Reason: Not as described: Colour differs from photos',
  )
})

test('a 12 MP phone photo over 5 MB, held upright and carrying where it was taken, goes up shrunk to 2560 px, upright and without the place', async ({
  page,
  resetDemoShops,
}) => {
  // What a phone's camera gives: a 4000 × 3000 sensor picture, "turn it a quarter" (orientation 6), and the place in its EXIF.
  const place = 'Taken at 51.5007 N 0.1246 W'
  const camera = await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#a04060',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .jpeg({ quality: 95 })
    .withExif({ IFD0: { ImageDescription: place } })
    .withMetadata({ orientation: 6 })
    .toBuffer()
  expect(camera.byteLength).toBeGreaterThan(PHOTO_MAX_BYTES)

  await reasonStepOf1001(page, resetDemoShops, 'Ceramic Mug', MUG)
  await page.getByRole('radio', { name: 'Arrived damaged', exact: true }).check()
  await expect(page.getByText('JPEG, PNG or WebP, up to 30 MB each.', { exact: false })).toBeVisible()

  const sent = page.waitForRequest(isPhotoUpload)
  const answered = page.waitForResponse((response) => isPhotoUpload(response.request()))
  await page.getByLabel('Add photos').setInputFiles({ name: 'IMG_0042.jpg', mimeType: 'image/jpeg', buffer: camera })
  const body = (await sent).postDataBuffer()!
  expect((await answered).status()).toBe(201)
  expect(body.byteLength).toBeLessThan(PHOTO_MAX_BYTES)
  expect(body.includes(place)).toBe(false)
  const metadata = await sharp(body).metadata()
  expect(metadata).toMatchObject({ format: 'jpeg', width: 1920, height: 2560 })
  expect([metadata.exif, metadata.orientation]).toEqual([undefined, undefined])
  // The preview is the shrunk photo, upright (taller than wide).
  const preview = page.getByRole('img', { name: 'Your photo 1 of the Ceramic Mug' })
  await expectPicture(preview)
  expect(
    await preview.evaluate((image) => [
      (image as HTMLImageElement).naturalWidth,
      (image as HTMLImageElement).naturalHeight,
    ]),
  ).toEqual([1920, 2560])
  await expect(page.getByRole('alert')).toBeHidden()
})

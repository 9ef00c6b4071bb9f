// The flow checkout, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('checkout', async ({ page }) => {
  // step 1: navigate /products
  await page.goto('/products');
  // step 2: click role=button[name="Add Trail shoes to cart"]
  await page.getByRole('button', { name: 'Add Trail shoes to cart', exact: true }).click();
  // step 3: navigate /cart
  await page.goto('/cart');
  // step 4: click role=link[name="Checkout"]
  await page.getByRole('link', { name: 'Checkout', exact: true }).click();
  // step 5: fill role=textbox[name="Full name"]
  await page.getByRole('textbox', { name: 'Full name', exact: true }).fill('Ada Lovelace');
  // step 6: fill role=textbox[name="Address"]
  await page.getByRole('textbox', { name: 'Address', exact: true }).fill('12 Analytical Row');
  // step 7: select role=combobox[name="Shipping"]
  await page.getByRole('combobox', { name: 'Shipping', exact: true }).selectOption(['express']);
  // step 8: click role=button[name="Place order"]
  await page.getByRole('button', { name: 'Place order', exact: true }).click();
  // step 9: expect role=status
  await expect(page.getByRole('status')).toContainText('Please accept the terms');
  // step 10: check role=checkbox[name="I accept the terms"]
  await page.getByRole('checkbox', { name: 'I accept the terms', exact: true }).check();
  // step 11: click role=button[name="Place order"]
  await page.getByRole('button', { name: 'Place order', exact: true }).click();
  // step 12: expect role=status
  await expect(page.getByRole('status')).toContainText('Order confirmed for Ada Lovelace (express)');
  // step 13: expect #cart-count
  await expect(page.locator('#cart-count')).toContainText('0');
});

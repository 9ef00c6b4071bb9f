// The flow product-quantity, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('product-quantity', async ({ page }) => {
  // step 1: navigate /products
  await page.goto('/products');
  // step 2: click role=link[name="Desk lamp"]
  await page.getByRole('link', { name: 'Desk lamp', exact: true }).click();
  // step 3: expect role=heading[name="Desk lamp"]
  await expect(page.getByRole('heading', { name: 'Desk lamp', exact: true })).toBeVisible();
  // step 4: fill role=spinbutton[name="Quantity"]
  await page.getByRole('spinbutton', { name: 'Quantity', exact: true }).fill('3');
  // step 5: click role=button[name="Add to cart"]
  await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
  // step 6: expect role=status
  await expect(page.getByRole('status')).toContainText('3 in your cart');
  // step 7: navigate /cart
  await page.goto('/cart');
  // step 8: expect role=status
  await expect(page.getByRole('status')).toContainText('Total: $135');
});

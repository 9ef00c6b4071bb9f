// The flow add-to-cart, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('add-to-cart', async ({ page }) => {
  // step 1: navigate /products
  await page.goto('/products');
  // step 2: click role=button[name="Add Chef knife to cart"]
  await page.getByRole('button', { name: 'Add Chef knife to cart', exact: true }).click();
  // step 3: click role=button[name="Add Yoga mat to cart"]
  await page.getByRole('button', { name: 'Add Yoga mat to cart', exact: true }).click();
  // step 4: expect #cart-count
  await expect(page.locator('#cart-count')).toContainText('2');
  // step 5: click role=link[name="Cart (2)"]
  await page.getByRole('link', { name: 'Cart (2)', exact: true }).click();
  // step 6: expect role=cell[name="Chef knife"]
  await expect(page.getByRole('cell', { name: 'Chef knife', exact: true })).toBeVisible();
  // step 7: expect role=status
  await expect(page.getByRole('status')).toContainText('Total: $89');
});

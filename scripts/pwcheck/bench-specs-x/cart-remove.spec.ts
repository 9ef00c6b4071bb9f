// The flow cart-remove, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('cart-remove', async ({ page }) => {
  // step 1: navigate /products
  await page.goto('/products');
  // step 2: click role=button[name="Add Blue mug to cart"]
  await page.getByRole('button', { name: 'Add Blue mug to cart', exact: true }).click();
  // step 3: click role=button[name="Add Notebook to cart"]
  await page.getByRole('button', { name: 'Add Notebook to cart', exact: true }).click();
  // step 4: navigate /cart
  await page.goto('/cart');
  // step 5: expect role=status
  await expect(page.getByRole('status')).toContainText('Total: $15');
  // step 6: click role=button[name="Remove Blue mug"]
  await page.getByRole('button', { name: 'Remove Blue mug', exact: true }).click();
  // step 7: expect role=status
  await expect(page.getByRole('status')).toContainText('Total: $6');
  // step 8: click role=button[name="Remove Notebook"]
  await page.getByRole('button', { name: 'Remove Notebook', exact: true }).click();
  // step 9: expect role=status
  await expect(page.getByRole('status')).toContainText('Your cart is empty');
});

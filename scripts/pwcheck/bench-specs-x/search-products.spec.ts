// The flow search-products, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('search-products', async ({ page }) => {
  // step 1: navigate /products
  await page.goto('/products');
  // step 2: expect role=status
  await expect(page.getByRole('status')).toContainText('24 products');
  // step 3: fill role=searchbox[name="Search"]
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('mug');
  // step 4: expect role=status
  await expect(page.getByRole('status')).toContainText('1 products');
  // step 5: expect role=link[name="Blue mug"]
  await expect(page.getByRole('link', { name: 'Blue mug', exact: true })).toBeVisible();
  // step 6: fill role=searchbox[name="Search"]
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('o');
  // step 7: expect role=status
  await expect(page.getByRole('status')).toContainText('12 products');
});

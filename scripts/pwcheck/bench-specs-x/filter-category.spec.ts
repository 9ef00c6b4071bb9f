// The flow filter-category, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('filter-category', async ({ page }) => {
  // step 1: navigate /products
  await page.goto('/products');
  // step 2: expect role=status
  await expect(page.getByRole('status')).toContainText('24 products');
  // step 3: select role=combobox[name="Category"]
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption(['Outdoor']);
  // step 4: expect role=status
  await expect(page.getByRole('status')).toContainText('6 products');
  // step 5: expect role=link[name="Rain jacket"]
  await expect(page.getByRole('link', { name: 'Rain jacket', exact: true })).toBeVisible();
  // step 6: select role=combobox[name="Category"]
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption(['Office']);
  // step 7: expect role=link[name="Stapler"]
  await expect(page.getByRole('link', { name: 'Stapler', exact: true })).toBeVisible();
});

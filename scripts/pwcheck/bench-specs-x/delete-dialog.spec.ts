// The flow delete-dialog, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('delete-dialog', async ({ page }) => {
  // step 1: navigate /files
  await page.goto('/files');
  // step 2: click role=button[name="Delete budget.xlsx"]
  await page.getByRole('button', { name: 'Delete budget.xlsx', exact: true }).click();
  // step 3: expect role=dialog[name="Delete file?"]
  await expect(page.getByRole('dialog', { name: 'Delete file?', exact: true })).toBeVisible();
  // step 4: click role=button[name="Cancel"]
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  // step 5: expect role=status
  await expect(page.getByRole('status')).toContainText('Kept budget.xlsx');
  // step 6: click role=button[name="Delete photo.jpg"]
  await page.getByRole('button', { name: 'Delete photo.jpg', exact: true }).click();
  // step 7: click role=button[name="Delete"]
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  // step 8: expect role=status
  await expect(page.getByRole('status')).toContainText('Deleted photo.jpg, 3 files left');
  // step 9: expect role=button[name="Delete photo.jpg"]
  await expect(page.getByRole('button', { name: 'Delete photo.jpg', exact: true })).toBeHidden();
});

// The flow todos-filter, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('todos-filter', async ({ page }) => {
  // step 1: navigate /todos
  await page.goto('/todos');
  // step 2: fill role=textbox[name="New todo"]
  await page.getByRole('textbox', { name: 'New todo', exact: true }).fill('Water plants');
  // step 3: press Enter
  await page.keyboard.press('Enter');
  // step 4: fill role=textbox[name="New todo"]
  await page.getByRole('textbox', { name: 'New todo', exact: true }).fill('Pay rent');
  // step 5: press Enter
  await page.keyboard.press('Enter');
  // step 6: check role=checkbox[name="Pay rent"]
  await page.getByRole('checkbox', { name: 'Pay rent', exact: true }).check();
  // step 7: click role=button[name="Active"]
  await page.getByRole('button', { name: 'Active', exact: true }).click();
  // step 8: expect role=checkbox[name="Water plants"]
  await expect(page.getByRole('checkbox', { name: 'Water plants', exact: true })).toBeVisible();
  // step 9: click role=button[name="Completed"]
  await page.getByRole('button', { name: 'Completed', exact: true }).click();
  // step 10: expect role=checkbox[name="Pay rent"]
  await expect(page.getByRole('checkbox', { name: 'Pay rent', exact: true })).toBeChecked();
  // step 11: click role=button[name="All"]
  await page.getByRole('button', { name: 'All', exact: true }).click();
  // step 12: expect role=status
  await expect(page.getByRole('status')).toContainText('1 item left');
});

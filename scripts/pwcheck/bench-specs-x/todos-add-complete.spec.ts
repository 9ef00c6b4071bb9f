// The flow todos-add-complete, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('todos-add-complete', async ({ page }) => {
  // step 1: navigate /todos
  await page.goto('/todos');
  // step 2: fill role=textbox[name="New todo"]
  await page.getByRole('textbox', { name: 'New todo', exact: true }).fill('Buy milk');
  // step 3: press Enter
  await page.keyboard.press('Enter');
  // step 4: fill role=textbox[name="New todo"]
  await page.getByRole('textbox', { name: 'New todo', exact: true }).fill('Write report');
  // step 5: press Enter
  await page.keyboard.press('Enter');
  // step 6: fill role=textbox[name="New todo"]
  await page.getByRole('textbox', { name: 'New todo', exact: true }).fill('Call Bob');
  // step 7: press Enter
  await page.keyboard.press('Enter');
  // step 8: expect role=status
  await expect(page.getByRole('status')).toContainText('3 items left');
  // step 9: check role=checkbox[name="Write report"]
  await page.getByRole('checkbox', { name: 'Write report', exact: true }).check();
  // step 10: expect role=status
  await expect(page.getByRole('status')).toContainText('2 items left');
  // step 11: expect role=checkbox[name="Write report"]
  await expect(page.getByRole('checkbox', { name: 'Write report', exact: true })).toBeChecked();
});

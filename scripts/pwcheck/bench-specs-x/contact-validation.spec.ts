// The flow contact-validation, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('contact-validation', async ({ page }) => {
  // step 1: navigate /contact
  await page.goto('/contact');
  // step 2: click role=button[name="Send"]
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // step 3: expect text=Enter a valid email
  await expect(page.getByText('Enter a valid email')).toBeVisible();
  // step 4: expect text=The message needs at least 10 characters
  await expect(page.getByText('The message needs at least 10 characters')).toBeVisible();
  // step 5: fill role=textbox[name="Email"]
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill('ada@example.com');
  // step 6: fill role=textbox[name="Message"]
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Where is my kettle?');
  // step 7: click role=button[name="Send"]
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // step 8: expect role=status
  await expect(page.getByRole('status')).toContainText('Thanks, we will write to ada@example.com');
});

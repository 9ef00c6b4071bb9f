// The flow sign-in-wrong-password, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('sign-in-wrong-password', async ({ page }) => {
  // step 1: navigate /login
  await page.goto('/login');
  // step 2: fill role=textbox[name="Username"]
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill('ada');
  // step 3: fill role=textbox[name="Password"]
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('guess');
  // step 4: press Enter
  await page.keyboard.press('Enter');
  // step 5: expect role=status
  await expect(page.getByRole('status')).toContainText('Wrong username or password');
});

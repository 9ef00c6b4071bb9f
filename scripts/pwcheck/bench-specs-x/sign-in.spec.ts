// The flow sign-in, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('sign-in', async ({ page }) => {
  // step 1: navigate /login
  await page.goto('/login');
  // step 2: fill role=textbox[name="Username"]
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill('ada');
  // step 3: fill role=textbox[name="Password"]
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('s3cret-pass');
  // step 4: click role=button[name="Sign in"]
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // step 5: expect role=status
  await expect(page.getByRole('status')).toContainText('Signed in as ada');
});

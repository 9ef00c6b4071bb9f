// The flow settings-tabs, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('settings-tabs', async ({ page }) => {
  // step 1: navigate /settings
  await page.goto('/settings');
  // step 2: fill role=textbox[name="Display name"]
  await page.getByRole('textbox', { name: 'Display name', exact: true }).fill('Ada');
  // step 3: select role=combobox[name="Language"]
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption(['Deutsch']);
  // step 4: click role=tab[name="Notifications"]
  await page.getByRole('tab', { name: 'Notifications', exact: true }).click();
  // step 5: check role=checkbox[name="Text me"]
  await page.getByRole('checkbox', { name: 'Text me', exact: true }).check();
  // step 6: uncheck role=checkbox[name="Email me"]
  await page.getByRole('checkbox', { name: 'Email me', exact: true }).uncheck();
  // step 7: click role=button[name="Save settings"]
  await page.getByRole('button', { name: 'Save settings', exact: true }).click();
  // step 8: expect role=status
  await expect(page.getByRole('status')).toContainText('Saved: Ada, Deutsch, texts on');
  // step 9: click role=tab[name="Profile"]
  await page.getByRole('tab', { name: 'Profile', exact: true }).click();
  // step 10: expect role=textbox[name="Display name"]
  await expect(page.getByRole('textbox', { name: 'Display name', exact: true })).toHaveValue('Ada');
});

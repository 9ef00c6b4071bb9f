// The flow faq-accordion, exported by e2e-mcp as a Playwright Test spec.
import { test, expect } from '@playwright/test';

test('faq-accordion', async ({ page }) => {
  // step 1: navigate /faq
  await page.goto('/faq');
  // step 2: click text=Can I return an item?
  await page.getByText('Can I return an item?').click();
  // step 3: expect text=Yes, within 30 days, unused and in its box.
  await expect(page.getByText('Yes, within 30 days, unused and in its box.')).toBeVisible();
  // step 4: click text=Do you ship abroad?
  await page.getByText('Do you ship abroad?').click();
  // step 5: expect text=We ship to every country in the European Union.
  await expect(page.getByText('We ship to every country in the European Union.')).toBeVisible();
  // step 6: click text=Can I return an item?
  await page.getByText('Can I return an item?').click();
  // step 7: expect text=Yes, within 30 days, unused and in its box.
  await expect(page.getByText('Yes, within 30 days, unused and in its box.')).toBeHidden();
});

package playwright

import (
	"slices"
	"strings"
	"testing"

	"github.com/e2e-mcp/e2e-mcp/flow"
)

func TestLocator(t *testing.T) {
	for _, c := range []struct{ sel, want string }{
		{`role=button[name="Sign up"]`, `page.getByRole('button', { name: 'Sign up', exact: true })`},
		{`role=button[name="sign up"i]`, `page.getByRole('button', { name: /^sign up$/i })`},
		{`role=button[name=/sign\s*up/i]`, `page.getByRole('button', { name: /sign\s*up/i })`},
		{`role=button[name*="Sign"]`, `page.getByRole('button', { name: /Sign/ })`},
		{`role=link[name^="Go (1)"]`, `page.getByRole('link', { name: /^Go \(1\)/ })`},
		{`role=link[name$="end"]`, `page.getByRole('link', { name: /end$/ })`},
		{`role=status`, `page.getByRole('status')`},
		{`role=checkbox[checked=true][disabled=false]`, `page.getByRole('checkbox', { checked: true, disabled: false })`},
		{`role=heading[level=2]`, `page.getByRole('heading', { level: 2 })`},
		{`role=checkbox[checked="mixed"]`, `page.locator('role=checkbox[checked="mixed"]')`},
		{`role=button[include-hidden]`, `page.getByRole('button', { includeHidden: true })`},
		{`role=button[name="Save"] >> nth=1`, `page.getByRole('button', { name: 'Save', exact: true }).nth(1)`},
		{`role=row >> nth=-1`, `page.getByRole('row').last()`},
		{`role=row >> nth=0`, `page.getByRole('row').first()`},
		{`label="Email"`, `page.getByLabel('Email', { exact: true })`},
		{`label=email`, `page.getByLabel('email')`},
		{`testid="save-btn"`, `page.getByTestId('save-btn')`},
		{`data-testid=save`, `page.getByTestId('save')`},
		{`text="Welcome, Ada!"`, `page.getByText('Welcome, Ada!', { exact: true })`},
		{`text=welcome`, `page.getByText('welcome')`},
		{`text=/wel+come/i`, `page.getByText(/wel+come/i)`},
		{`"It's here"`, `page.getByText('It\'s here', { exact: true })`},
		{`text="a"i`, `page.getByText(/^a$/i)`},
		{`placeholder="Search"`, `page.getByPlaceholder('Search', { exact: true })`},
		{`alt=logo`, `page.getByAltText('logo')`},
		{`title="Close"`, `page.getByTitle('Close', { exact: true })`},
		{`#save.primary`, `page.locator('#save.primary')`},
		{`form >> button:has-text("Go")`, `page.locator('form').locator('button:has-text("Go")')`},
		{`//button[@id='x']`, `page.locator('//button[@id=\'x\']')`},
		{`id=main`, `page.locator('id=main')`},
		{`iframe#pay >> role=button[name="Pay"]`, `page.locator('iframe#pay').contentFrame().getByRole('button', { name: 'Pay', exact: true })`},
		{`iframe[title="Our newsletter"] >> role=textbox[name="Email"]`, `page.locator('iframe[title="Our newsletter"]').contentFrame().getByRole('textbox', { name: 'Email', exact: true })`},
		{`iframe[name="outer"] >> iframe[src*="/inner.html"] >> role=button`, `page.locator('iframe[name="outer"]').contentFrame().locator('iframe[src*="/inner.html"]').contentFrame().getByRole('button')`},
		{`iframe >> nth=1 >> text=Pay`, `page.locator('iframe').nth(1).contentFrame().getByText('Pay')`},
		{`main iframe.card, frame >> role=button`, `page.locator('main iframe.card, frame').contentFrame().getByRole('button')`},
		{`iframe[title="x"]`, `page.locator('iframe[title="x"]')`},
		{`.iframe-wrapper >> role=button`, `page.locator('.iframe-wrapper').getByRole('button')`},
		{`.list >> visible=true`, `page.locator('.list').filter({ visible: true })`},
		{`role=textbox[name="Line\\one"]`, `page.getByRole('textbox', { name: 'Line\\one', exact: true })`},
	} {
		got, err := Locator(c.sel, "")
		if err != nil {
			t.Errorf("Locator(%q): %v", c.sel, err)
			continue
		}
		if got != c.want {
			t.Errorf("Locator(%q)\n got %s\nwant %s", c.sel, got, c.want)
		}
	}
	if _, err := Locator(`role=button[name="x`, ""); err == nil {
		t.Error("an unterminated selector converts")
	}
	if got, _ := Locator(`testid=x`, "data-qa"); got != `page.getByTestId('x')` {
		t.Errorf("testid with data-qa: %s", got)
	}
}

// convert converts one flow's steps and returns the spec's text.
func convert(t *testing.T, f *flow.Flow, o Options) *Spec {
	t.Helper()
	if f.Name == "" {
		f.Name = "t"
	}
	s, err := Convert(f, o)
	if err != nil {
		t.Fatalf("Convert: %v", err)
	}
	return s
}

func steps(yamlSteps string) *flow.Flow {
	f, err := flow.Parse([]byte("name: t\nsteps:\n" + yamlSteps))
	if err != nil {
		panic(err)
	}
	return f
}

func TestConvert_Steps(t *testing.T) {
	for _, c := range []struct {
		name, steps string
		want        []string
		warn        string
	}{
		{"navigate", "  - navigate: /signup\n  - navigate: https://example.com/x\n",
			[]string{"await page.goto('/signup');", "await page.goto('https://example.com/x');"}, ""},
		{"history", "  - back\n  - forward\n  - reload\n",
			[]string{"await page.goBack();", "await page.goForward();", "await page.reload();"}, ""},
		{"click", "  - click: 'role=button[name=\"Go\"]'\n  - click: {target: '#a', doubleClick: true, button: right, modifiers: [Shift]}\n",
			[]string{"await page.getByRole('button', { name: 'Go', exact: true }).click();",
				"await page.locator('#a').dblclick({ button: 'right', modifiers: ['Shift'] });"}, ""},
		{"type", "  - type: {target: '#n', text: Ada, submit: true}\n  - fill: {target: '#m', text: \"x\", slowly: true}\n",
			[]string{"await page.locator('#n').fill('Ada');", "await page.locator('#n').press('Enter');",
				"await page.locator('#m').pressSequentially('x');"}, ""},
		{"secret", "  - type: {target: '#pw', text: '${E2E_SECRET_1}'}\n",
			[]string{"await page.locator('#pw').fill(env('E2E_SECRET_1'));"}, ""},
		{"fill_form", "  - fill_form: {fields: [{target: '#a', type: textbox, value: v}, {target: '#b', type: checkbox, value: 'true'}, {target: '#c', type: combobox, value: Red}, {target: '#d', type: slider, value: '7'}]}\n",
			[]string{"await page.locator('#a').fill('v');", "await page.locator('#b').setChecked(true);",
				"await page.locator('#c').selectOption('Red');", "await page.locator('#d').fill('7');"}, ""},
		{"old fill with fields", "  - fill: {fields: [{target: '#r', type: radio, value: 'true'}]}\n",
			[]string{"await page.locator('#r').setChecked(true);"}, ""},
		{"select check hover drag press", "  - select: {target: '#s', values: [a, b]}\n  - check: '#c'\n  - uncheck: '#c'\n  - hover: '#h'\n  - drag: {startTarget: '#x', endTarget: '#y'}\n  - press: Control+A\n",
			[]string{"await page.locator('#s').selectOption(['a', 'b']);", "await page.locator('#c').check();",
				"await page.locator('#c').uncheck();", "await page.locator('#h').hover();",
				"await page.locator('#x').dragTo(page.locator('#y'), { steps: 10 });", "await page.keyboard.press('Control+A');"}, ""},
		{"upload", "  - upload: {target: '#f', paths: [/tmp/a.txt]}\n  - click: '#pick'\n  - upload: {paths: [/tmp/b.txt]}\n",
			[]string{"await page.locator('#f').setInputFiles(['/tmp/a.txt']);",
				"const chooser1 = page.waitForEvent('filechooser');\n  await page.locator('#pick').click();",
				"await (await chooser1).setFiles(['/tmp/b.txt']);"}, ""},
		{"upload without chooser", "  - upload: {paths: [/tmp/b.txt]}\n", []string{"// not exported: an upload"}, "step 1: not exported: an upload"},
		{"dialog", "  - click: '#del'\n  - dialog: {accept: true, promptText: yes}\n  - click: '#x'\n  - dialog: {accept: false}\n",
			[]string{"page.once('dialog', (dialog) => { void dialog.accept('yes'); });\n  await page.locator('#del').click();",
				"page.once('dialog', (dialog) => { void dialog.dismiss(); });\n  await page.locator('#x').click();"}, ""},
		{"resize media", "  - resize: {width: 390, height: 844}\n  - emulate_media: {colorScheme: dark, media: print}\n  - emulate_media:\n",
			[]string{"await page.setViewportSize({ width: 390, height: 844 });",
				"await page.emulateMedia({ media: 'print', colorScheme: 'dark', reducedMotion: null, forcedColors: null });",
				"await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null });"}, ""},
		{"clock", "  - clock: {action: install, time: '2030-01-01T09:00:00'}\n  - clock: {action: fast_forward, duration: 1h30m}\n  - clock: {action: run_for, duration: 500ms}\n  - clock: {action: pause_at, time: '1700000000000'}\n  - clock: {action: resume}\n  - clock: {action: set_fixed_time, time: '2030-01-01T10:00:00+02:00'}\n  - clock: {action: set_system_time, time: '2031-05-06'}\n  - clock: {action: install}\n",
			[]string{"await page.clock.install({ time: new Date('2030-01-01T09:00:00.000Z') });",
				"await page.clock.fastForward(5.4e+06);", "await page.clock.runFor(500);",
				"await page.clock.pauseAt(1700000000000);", "await page.clock.resume();",
				"await page.clock.setFixedTime(new Date('2030-01-01T08:00:00.000Z'));",
				"await page.clock.setSystemTime(new Date('2031-05-06T00:00:00.000Z'));", "await page.clock.install();"}, ""},
		{"init script", "  - init_script: \"window.x = 'y';\"\n  - init_script: {path: /tmp/s.js}\n",
			[]string{"await page.context().addInitScript('window.x = \\'y\\';');", "await page.context().addInitScript({ path: '/tmp/s.js' });"}, ""},
		{"network state", "  - network_state: offline\n  - network_state: online\n  - network_state: slow-3g\n",
			[]string{"await page.context().setOffline(true);", "await page.context().setOffline(false);", "// not exported: network state slow-3g"},
			"step 3: not exported: network state slow-3g"},
		{"set storage state", "  - set_storage_state: auth.json\n  - set_storage_state: /srv/state.json\n",
			[]string{"await page.context().setStorageState(path.resolve(path.dirname(test.info().file), 'auth.json'));",
				"await page.context().setStorageState('/srv/state.json');", "import path from 'node:path';"}, ""},
		{"files beside the flow", "  - upload: {target: '#f', paths: [upload.files/a.pdf, /srv/b.png]}\n  - drop: {target: '#z', paths: [c.txt]}\n" +
			"  - route: {pattern: '**/api', path: fixtures/api.json}\n",
			[]string{"await page.locator('#f').setInputFiles([path.resolve(path.dirname(test.info().file), 'upload.files/a.pdf'), '/srv/b.png']);",
				"await page.locator('#z').drop({ files: [path.resolve(path.dirname(test.info().file), 'c.txt')] });",
				"await route.fulfill({ path: path.resolve(path.dirname(test.info().file), 'fixtures/api.json') });"}, ""},
		{"evaluate", "  - evaluate: '() => window.scrollTo(0, 2000)'\n  - evaluate: {function: '(el) => el.scrollTop = 500', target: 'role=list'}\n" +
			"  - evaluate: \"document.title + '\\n' + `$${x}`\"\n  - evaluate: \"() => login('${E2E_SECRET_1}')\"\n",
			[]string{"// page code the agent ran: review it",
				"await page.evaluate(pageCode('() => window.scrollTo(0, 2000)'));",
				"await page.getByRole('list').evaluate(pageCode('(el) => el.scrollTop = 500'));",
				"await page.evaluate(pageCode('document.title + \\'\\n\\' + `${x}`'));",
				"await page.evaluate(pageCode('() => login(\\'' + env('E2E_SECRET_1') + '\\')'));",
				"function pageCode(src: string)"}, ""},
		{"mouse", "  - mouse_move_xy: {x: 10, y: 20.5}\n  - mouse_click_xy: {x: 1, y: 2, button: right, clickCount: 2}\n" +
			"  - mouse_down\n  - mouse_up: middle\n  - mouse_drag_xy: {startX: 1, startY: 2, endX: 30, endY: 40}\n  - mouse_wheel: {x: 5, y: 6, deltaY: 300}\n",
			[]string{"await page.mouse.move(10, 20.5);", "await page.mouse.click(1, 2, { button: 'right', clickCount: 2 });",
				"await page.mouse.down();", "await page.mouse.up({ button: 'middle' });",
				"await page.mouse.move(1, 2);\n  await page.mouse.down();\n  await page.mouse.move(30, 40, { steps: 10 });\n  await page.mouse.up();",
				"await page.mouse.move(5, 6);\n  await page.mouse.wheel(0, 300);\n  await page.evaluate(() => new Promise<void>("}, ""},
		{"wait", "  - wait: {text: Done, timeout: 2}\n  - wait: {textGone: Loading}\n  - wait: {target: '#spin', state: detached}\n  - wait: {url: '**/done'}\n  - wait: {url: /done}\n  - wait: {loadState: networkidle, time: 0.5}\n",
			[]string{"await expect(page.getByText('Done').first()).toBeVisible({ timeout: 2000 });",
				"await expect(page.getByText('Loading').filter({ visible: true })).toHaveCount(0);",
				"await page.locator('#spin').waitFor({ state: 'detached' });",
				"await page.waitForURL(/^.*\\/done$/);",
				"await page.waitForURL((url: URL) => /^\\/done$/.test(url.pathname + url.search));",
				"await page.waitForTimeout(500);\n  await page.waitForLoadState('networkidle');"}, ""},
		{"download", "  - click: '#dl'\n  - wait: {download: true}\n",
			[]string{"const download1 = page.waitForEvent('download');\n  await page.locator('#dl').click();", "await (await download1).path();"}, ""},
		{"expect", "  - expect: {target: 'role=status', check: text, expected: 'Welcome, Ada!'}\n" +
			"  - expect: {target: '#s', check: text, expected: '/wel+come/i', timeout: 3}\n" +
			"  - expect: {target: '#v', check: value, expected: exact}\n" +
			"  - expect: {target: '#v', check: value, expected: '/^\\d+$/'}\n" +
			"  - expect: {target: 'li', check: count, expected: '3'}\n" +
			"  - expect: {target: '#a', check: visible}\n  - expect: {target: '#a', check: hidden}\n" +
			"  - expect: {target: '#a', check: enabled}\n  - expect: {target: '#a', check: disabled}\n" +
			"  - expect: {target: '#c', check: checked}\n  - expect: {target: '#c', check: unchecked}\n",
			[]string{"await expect(page.getByRole('status')).toContainText('Welcome, Ada!');",
				"await expect(page.locator('#s')).toHaveText(/wel+come/i, { timeout: 3000 });",
				"await expect(page.locator('#v')).toHaveValue('exact');",
				"await expect(page.locator('#v')).toHaveValue(/^\\d+$/);",
				"await expect(page.locator('li')).toHaveCount(3);",
				"toBeVisible();", "toBeHidden();", "toBeEnabled();", "toBeDisabled();",
				"await expect(page.locator('#c')).toBeChecked();", "await expect(page.locator('#c')).toBeChecked({ checked: false });"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := convert(t, steps(c.steps), Options{})
			for _, w := range c.want {
				if !strings.Contains(s.Text, w) {
					t.Errorf("the spec lacks\n%s\n--- spec:\n%s", w, s.Text)
				}
			}
			var warnings []string
			for _, w := range s.Warnings {
				if w != flow.NoChecks { // TestConvert_NoChecks
					warnings = append(warnings, w)
				}
			}
			warned := strings.Join(warnings, "\n")
			if c.warn == "" && warned != "" || !strings.Contains(warned, c.warn) {
				t.Errorf("warnings %q, want %q", s.Warnings, c.warn)
			}
		})
	}
}

// TestConvert_NoChecks: a flow that asserts nothing is said so in the
// spec and the warnings; one with an expect step is not.
func TestConvert_NoChecks(t *testing.T) {
	s := convert(t, steps("  - navigate: /\n  - click: '#go'\n  - wait: {text: Done}\n"), Options{})
	if !strings.Contains(s.Text, "// Warning: "+flow.NoChecks+"\ntest(") || !slices.Contains(s.Warnings, flow.NoChecks) {
		t.Errorf("no warning of a flow that checks nothing: %q\n%s", s.Warnings, s.Text)
	}
	s = convert(t, steps("  - navigate: /\n  - expect: {target: h1, check: visible}\n"), Options{})
	if strings.Contains(s.Text, "Warning") || len(s.Warnings) > 0 {
		t.Errorf("a flow with a check warned: %q\n%s", s.Warnings, s.Text)
	}
}

// TestConvert_FileChooser: a spec whose flow uploads or clicks a file
// input takes every file chooser, as e2e-mcp does; one that does neither
// does not.
func TestConvert_FileChooser(t *testing.T) {
	f := steps("  - click: '#files'\n  - expect: {target: '#log', check: visible}\n")
	if s := convert(t, f, Options{}); strings.Contains(s.Text, "filechooser") {
		t.Errorf("a flow that opens no chooser listens for one:\n%s", s.Text)
	}
	f.Steps[0].Fingerprint = &flow.Fingerprint{Role: "button", Tag: "input", Type: "file"}
	if s := convert(t, f, Options{}); !strings.Contains(s.Text, "  page.on('filechooser', () => {});\n  // step 1:") {
		t.Errorf("a click on a file input without the listener:\n%s", s.Text)
	}
}

// TestExport_Files: a flow's relative files are read from its directory
// whatever directory the spec is written to.
func TestExport_Files(t *testing.T) {
	f := steps("  - upload: {target: '#f', paths: [signup.files/cv.pdf]}\n  - expect: {target: '#f', check: visible}\n")
	res, err := Export([]Input{{Flow: f, Dir: "/repo/flows"}}, "/repo/e2e/specs", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "setInputFiles([path.resolve(path.dirname(test.info().file), '../../flows/signup.files/cv.pdf')]);"; !strings.Contains(res.Specs[0].Text, want) {
		t.Errorf("the spec lacks %s:\n%s", want, res.Specs[0].Text)
	}
}

func TestConvert_Routes(t *testing.T) {
	s := convert(t, steps(`  - route: {pattern: '**/api/users*', status: 200, contentType: application/json, body: '[{"name":"Ada"}]', headers: ['X-Mock: 1'], times: 2}
  - route: {pattern: '/api/slow', delay: 1.5, abort: timedout}
  - route: {pattern: '/users/\d+/i', headers: ['Authorization: Bearer x'], removeHeaders: 'Cookie, X-Old'}
  - route: {pattern: 'https://cdn.example.com/*.png', path: /tmp/img.png}
  - route: {pattern: '**/api/users*', abort: failed}
  - unroute: '/api/slow'
  - unroute: '**/never'
  - unroute:
`), Options{})
	for _, w := range []string{
		`const route1 = /^.*\/api\/users[^\/]*$/; // **/api/users*`,
		`await route.fulfill({ status: 200, contentType: 'application/json', headers: { 'X-Mock': '1' }, body: '[{"name":"Ada"}]' });`,
		`}, { times: 2 });`,
		`const route2 = (url: URL) => /^\/api\/slow$/.test(url.pathname + url.search); // /api/slow`,
		"await new Promise((resolve) => setTimeout(resolve, 1500));\n    await route.abort('timedout');",
		`const route3 = /[Uu][Ssſ][Ee][Rr][Ssſ]\/[0-9]+/u; // /users/\d+/i`,
		`const headers = { ...route.request().headers(), ...({ 'authorization': 'Bearer x' }) };`,
		`delete headers['cookie'];`, `delete headers['x-old'];`, `await route.continue({ headers });`,
		`const route4 = /^https:\/\/cdn\.example\.com\/[^\/]*\.png$/;`, `await route.fulfill({ path: '/tmp/img.png' });`,
		"await page.context().unroute(route1);\n  const route5 = /^.*\\/api\\/users[^\\/]*$/;",
		`await page.context().unroute(route2);`,
		`await page.context().unroute(/^.*\/never$/);`,
		`await page.context().unrouteAll();`,
	} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("the spec lacks\n%s\n--- spec:\n%s", w, s.Text)
		}
	}
}

func TestConvert_EmulationAndStorage(t *testing.T) {
	f := steps(`  - emulate: {device: iPhone 15}
  - navigate: /
  - emulate: {locale: de-DE, timezoneId: Europe/Berlin, latitude: 52.52, longitude: 13.4, permissions: [notifications], headers: ['X-Team: qa'], httpUsername: admin, httpPassword: '${E2E_SECRET_1}', httpOrigin: 'https://staging.example.com', cpuThrottling: 4}
  - emulate: {width: 800, height: 600, reset: true}
`)
	f.StorageState = "auth/state.json"
	s := convert(t, f, Options{})
	for _, w := range []string{
		"import path from 'node:path';",
		"test.use({\n  storageState: async ({}, use, testInfo) => { await use(path.resolve(path.dirname(testInfo.file), 'auth/state.json')); },\n",
		"  viewport: { width: 800, height: 600 },\n  deviceScaleFactor: 3,\n  isMobile: true,\n  hasTouch: true,\n  userAgent: 'Mozilla/5.0 (iPhone;",
		"  locale: 'de-DE',\n  timezoneId: 'Europe/Berlin',\n  geolocation: { latitude: 52.52, longitude: 13.4 },\n  permissions: ['notifications', 'geolocation'],\n",
		"  extraHTTPHeaders: { 'X-Team': 'qa' },\n  httpCredentials: async ({}, use) => { await use({ username: 'admin', password: env('E2E_SECRET_1'), origin: 'https://staging.example.com' }); },\n",
		"// emulate: set for the whole test in test.use above",
		"await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });",
		"// not exported: emulate reset",
	} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("the spec lacks\n%s\n--- spec:\n%s", w, s.Text)
		}
	}
	if len(s.Env) != 1 || s.Env[0] != "E2E_SECRET_1" {
		t.Errorf("env %v", s.Env)
	}
}

// TestConvert_EveryVerb: each action of flow.Verbs is written, none falls
// to the unknown-action comment.
func TestConvert_EveryVerb(t *testing.T) {
	args := map[string]map[string]any{
		"type": {"target": "#a", "text": "x"}, "fill": {"target": "#a", "text": "x"},
		"fill_form": {"fields": []any{map[string]any{"target": "#a", "type": "textbox", "value": "v"}}},
		"select":    {"target": "#a", "values": []any{"v"}}, "drag": {"startTarget": "#a", "endTarget": "#b"},
		"upload": {"target": "#f", "paths": []any{"/tmp/x"}}, "drop": {"target": "#z", "paths": []any{"/tmp/x"}, "data": map[string]any{"text/plain": "x"}}, "dialog": {"accept": true}, "resize": {"width": 1, "height": 1},
		"emulate_media": {"media": "print"}, "clock": {"action": "resume"}, "route": {"pattern": "**/x", "status": 204}, "emulate": {"locale": "de-DE"},
		"wait": {"text": "x"}, "expect": {"target": "#a", "check": "visible"}, "network_state": {"state": "offline"},
		"evaluate": {"function": "(el) => el.value", "target": "#a"}, "mouse_move_xy": {"x": 1, "y": 2}, "mouse_click_xy": {"x": 1, "y": 2, "clickCount": 2},
		"mouse_drag_xy": {"startX": 1, "startY": 2, "endX": 3, "endY": 4}, "mouse_down": {"button": "right"}, "mouse_up": {}, "mouse_wheel": {"x": 1, "y": 2, "deltaY": 300},
	}
	// What Playwright has no equivalent for: said in the spec and warned.
	notExported := map[string]bool{
		"audit_a11y": true, // e2e-mcp's own rule set; Playwright has no accessibility audit of its own
	}
	for _, v := range flow.Verbs {
		a := args[v.Name]
		if a == nil {
			a = map[string]any{}
			if v.Short != "" {
				a[v.Short] = "#a"
			}
		}
		f := &flow.Flow{Name: v.Name, Steps: []flow.Step{{Action: "click", Args: map[string]any{"target": "#first"}}, {Action: v.Name, Args: a},
			{Action: "expect", Args: map[string]any{"target": "#done", "check": "visible"}}}}
		s, err := Convert(f, Options{})
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if got := strings.Contains(s.Text, "not exported") || len(s.Warnings) > 0; got != notExported[v.Name] {
			t.Errorf("%s: not exported %v, want %v:\n%s", v.Name, got, notExported[v.Name], s.Text)
		}
	}
}

func TestConvert_VisualCheck(t *testing.T) {
	s := convert(t, steps("  - expect: {check: screenshot, expected: live-pricing, mask: ['.clock', 'role=img[name=\"Map\"]'], threshold: 0.3, maxDiff: 0.01}\n"+
		"  - expect: {target: '#plan', check: screenshot, expected: plan, maxDiff: 12, timeout: 2}\n"), Options{})
	for _, want := range []string{
		"await expect(page).toHaveScreenshot('live-pricing.png', { animations: 'disabled', caret: 'hide', mask: [page.locator('.clock'), page.getByRole('img', { name: 'Map', exact: true })], threshold: 0.3, maxDiffPixelRatio: 0.01 });",
		"await expect(page.locator('#plan')).toHaveScreenshot('plan.png', { animations: 'disabled', caret: 'hide', maxDiffPixels: 12, timeout: 2000 });",
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the spec lacks\n%s\n%s", want, s.Text)
		}
	}
}

func TestConvert_Relative(t *testing.T) {
	s := convert(t, steps("  - navigate: http://127.0.0.1:41234/signup?x=1#top\n  - navigate: http://127.0.0.1:9999/other\n"),
		Options{DevURL: "http://127.0.0.1:41234"})
	for _, w := range []string{"await page.goto('/signup?x=1#top');", "await page.goto('http://127.0.0.1:9999/other');"} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("the spec lacks %s:\n%s", w, s.Text)
		}
	}
}

func TestConvert_BadFlow(t *testing.T) {
	for _, st := range []string{"  - click: 'role=button[name=\"x'\n", "  - expect: {target: '#a', check: count, expected: many}\n",
		"  - clock: {action: install, time: tomorrow}\n"} {
		if _, err := Convert(steps(st), Options{}); err == nil || !strings.Contains(err.Error(), "step 1") {
			t.Errorf("%s: err %v, want one naming step 1", st, err)
		}
	}
}

func TestExport_Config(t *testing.T) {
	signup := &flow.Flow{Name: "sign up/ok", Dev: &flow.Dev{Run: "python3 app.py $PORT", Cwd: "app", ReadyPath: "/health"},
		Steps: []flow.Step{{Action: "navigate", Args: map[string]any{"url": "/"}}, {Action: "expect", Args: map[string]any{"target": "h1", "check": "visible"}}}}
	res, err := Export([]Input{{Flow: signup, Dir: "/repo/flows"}}, "/repo/e2e", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Specs[0].File != "sign-up-ok.spec.ts" {
		t.Errorf("file %s", res.Specs[0].File)
	}
	for _, w := range []string{"const port = Number(process.env.PORT) || 3100;", "baseURL: `http://localhost:${port}`,",
		"executablePath: process.env.CHROMIUM || undefined", "headless: true,",
		"  webServer: {\n    command: 'python3 app.py $PORT',\n    cwd: '../flows/app',\n    url: `http://localhost:${port}` + '/health',\n    env: { PORT: String(port) },\n    reuseExistingServer: !process.env.CI,\n  },"} {
		if !strings.Contains(res.Config, w) {
			t.Errorf("the config lacks\n%s\n--- config:\n%s", w, res.Config)
		}
	}
	// Two dev servers and a flow on a base URL: a project each.
	other := &flow.Flow{Name: "admin", Dev: &flow.Dev{Run: "npm run dev"}, Steps: signup.Steps}
	remote := &flow.Flow{Name: "docs", BaseURL: "https://docs.example.com", Steps: signup.Steps}
	contract := &flow.Flow{Name: "legacy", Dev: &flow.Dev{Command: []string{"./devserver"}}, Steps: signup.Steps}
	res, err = Export([]Input{{Flow: signup, Dir: "/repo/flows"}, {Flow: other, Dir: "/repo"}, {Flow: remote}, {Flow: contract}}, "/repo/e2e", Options{TestIDAttribute: "data-qa"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"projects: [", "{ name: 'sign-up-ok', testMatch: ['sign-up-ok.spec.ts'], use: { baseURL: `http://localhost:${port}` } }",
		"{ name: 'admin', testMatch: ['admin.spec.ts'], use: { baseURL: `http://localhost:${(port + 1)}` } }",
		"{ name: 'docs', testMatch: ['docs.spec.ts'], use: { baseURL: 'https://docs.example.com' } }",
		"{ name: 'legacy', testMatch: ['legacy.spec.ts'], use: { baseURL: process.env.BASE_URL } }",
		"webServer: [", "command: 'npm run dev',\n      cwd: '..',", "testIdAttribute: 'data-qa',"} {
		if !strings.Contains(res.Config, w) {
			t.Errorf("the config lacks\n%s\n--- config:\n%s", w, res.Config)
		}
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "contract command ./devserver") {
		t.Errorf("warnings %q", res.Warnings)
	}

	// A flow with a dev server and one at absolute URLs: a project each,
	// or Playwright would run only the one a project matches.
	plain := &flow.Flow{Name: "plain", Steps: []flow.Step{{Action: "navigate", Args: map[string]any{"url": "https://example.com/"}}}}
	res, err = Export([]Input{{Flow: signup, Dir: "/repo/flows"}, {Flow: plain}}, "/repo/e2e", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"{ name: 'sign-up-ok', testMatch: ['sign-up-ok.spec.ts'], use: { baseURL: `http://localhost:${port}` } }",
		"{ name: 'plain', testMatch: ['plain.spec.ts'] }"} {
		if !strings.Contains(res.Config, w) {
			t.Errorf("the config lacks\n%s\n--- config:\n%s", w, res.Config)
		}
	}
	// No dev server at all: no webServer, said nowhere.
	res, err = Export([]Input{{Flow: plain}}, "/repo/e2e", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.WebServers != 0 || strings.Contains(res.Config, "webServer") || strings.Contains(res.Config, "projects") || strings.Contains(res.Config, "baseURL") {
		t.Errorf("a flow without a dev server (%d web servers):\n%s", res.WebServers, res.Config)
	}
}

// TestConvert_Texts: a spec sends the page what e2e-mcp run sends it: an
// escaped $ as $, a text that reads the environment through env(), which
// fails the test before its first step when a variable is not set (a
// test.use option reads it when the test starts); a variable where the
// spec can only hold a literal (a selector, a pattern, a header) is an
// error, not a literal.
func TestConvert_Texts(t *testing.T) {
	s := convert(t, steps(`  - navigate: /a?ref=$$AWS_KEY&c=$100
  - type: {target: 'role=textbox[name="Promo $$CODE"]', text: 'PROMO-$$AWS_KEY $${HOME} $$$$'}
  - fill_form: {fields: [{target: '#pw', type: textbox, value: '${E2E_SECRET_2}'}, {target: '#c', type: combobox, value: '$$x'}]}
  - type: {target: '#n', text: 'Hi $NAME!'}
  - emulate: {locale: '$LOCALE', userAgent: 'UA $$5'}
  - route: {pattern: '**/api/x', body: '{"user": "${NAME}", "cost": "$$5"}'}
`), Options{})
	for _, w := range []string{
		"// It reads from the environment: E2E_SECRET_2, LOCALE, NAME.",
		"const envNames: string[] = ['E2E_SECRET_2', 'LOCALE', 'NAME'];",
		"throw new Error('environment variables the flow reads are not set: ' + unset.join(', '));",
		"locale: async ({}, use) => { await use(env('LOCALE')); },",
		"userAgent: 'UA $5',",
		"test('t', async ({ page }) => {\n  checkEnv();\n",
		"// step 1: navigate /a?ref=$AWS_KEY&c=$100\n  await page.goto('/a?ref=$AWS_KEY&c=$100');",
		"await page.getByRole('textbox', { name: 'Promo $CODE', exact: true }).fill('PROMO-$AWS_KEY ${HOME} $$');",
		"await page.locator('#pw').fill(env('E2E_SECRET_2'));",
		"await page.locator('#c').selectOption('$x');",
		"await page.locator('#n').fill('Hi ' + env('NAME') + '!');",
		`body: '{"user": "' + env('NAME') + '", "cost": "$5"}'`,
	} {
		if !strings.Contains(s.Text, w) {
			t.Errorf("the spec lacks\n%s\n--- spec:\n%s", w, s.Text)
		}
	}
	if strings.Contains(s.Text, "process.env.") || strings.Contains(s.Text, "$$AWS") {
		t.Errorf("the spec reads the environment past env(), or holds an escape:\n%s", s.Text)
	}
	// No variable: no env() at all.
	if s := convert(t, steps("  - type: {target: '#a', text: '$$HOME'}\n"), Options{}); strings.Contains(s.Text, "env") || len(s.Env) > 0 {
		t.Errorf("a flow without variables reads the environment:\n%s", s.Text)
	}
	for st, want := range map[string]string{
		"  - click: 'text=${LABEL}'\n":                                           "step 1: the target reads the environment variable LABEL",
		"  - fill_form: {fields: [{target: '$SEL', type: textbox, value: x}]}\n": "the environment variable SEL",
		"  - route: {pattern: '**/$API/*', status: 204}\n":                       "step 1: pattern reads the environment variable API",
		"  - emulate: {headers: ['${NAME}: x']}\n":                               "step 1: headers[0] reads the environment variable NAME",
		"  - wait: {url: '**/${PAGE}'}\n":                                        "step 1: url reads the environment variable PAGE",
	} {
		if _, err := Convert(steps(st), Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", st, err, want)
		}
	}
	// A header's value may read the environment (a credential recorded as
	// ${E2E_SECRET_n}): read when the test starts, in a fixture, and on
	// every request a route sets it on.
	s = convert(t, steps("  - emulate: {headers: ['Authorization: Bearer ${TOKEN}', 'X-A: 1']}\n"+
		"  - route: {pattern: '**/api/*', headers: ['Authorization: ${E2E_SECRET_1}']}\n"), Options{})
	for _, want := range []string{
		`extraHTTPHeaders: async ({}, use) => { await use({ 'Authorization': 'Bearer ' + env('TOKEN'), 'X-A': '1' }); }`,
		`...({ 'authorization': env('E2E_SECRET_1') })`,
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("the spec lacks %s:\n%s", want, s.Text)
		}
	}
	// A flow built in code (not parsed) with a malformed text.
	bad := &flow.Flow{Name: "b", Steps: []flow.Step{{Action: "type", Args: map[string]any{"target": "#a", "text": "${"}}}}
	if _, err := Convert(bad, Options{}); err == nil || !strings.Contains(err.Error(), "step 1: text") {
		t.Errorf("a malformed text: %v", err)
	}
}

// TestConvert_Groups: a flow's groups become test.step callbacks around
// their steps' code, nested as the groups are; what a step binds for a
// later one (a file chooser's promise, a route's matcher) is a let of the
// test's top, so that the later step sees it from another callback; a flow
// without groups keeps its consts.
func TestConvert_Groups(t *testing.T) {
	s := convert(t, steps(`  - navigate: /
  - group: Sign in
    steps:
      - type: {target: label=Email, text: ada@example.com}
      - group: "The 'password'"
        steps:
          - type: {target: label=Password, text: '${E2E_SECRET_1}'}
      - click: '#pick'
  - upload: {paths: [/tmp/b.txt]}
  - group: Mocks
    steps:
      - route: {pattern: '/api/x', status: 500}
  - unroute: '/api/x'
`), Options{})
	want := `  checkEnv();
  let chooser1, route2;
  // As e2e-mcp does, the test takes every file chooser the page opens: one no
  // step answers stays open, and the field keeps its files.
  page.on('filechooser', () => {});
  // step 1: navigate /
  await page.goto('/');
  await test.step('Sign in', async () => {
    // step 2: type label=Email
    await page.getByLabel('Email').fill('ada@example.com');
    await test.step('The \'password\'', async () => {
      // step 3: type label=Password
      await page.getByLabel('Password').fill(env('E2E_SECRET_1'));
    });
    // step 4: click #pick
    chooser1 = page.waitForEvent('filechooser');
    await page.locator('#pick').click();
  });
  // step 5: upload
  await (await chooser1).setFiles(['/tmp/b.txt']);
  await test.step('Mocks', async () => {
    // step 6: route /api/x
    route2 = (url: URL) => /^\/api\/x$/.test(url.pathname + url.search); // /api/x
`
	if !strings.Contains(s.Text, want) {
		t.Errorf("the spec lacks\n%s\n--- spec:\n%s", want, s.Text)
	}
	if !strings.Contains(s.Text, "  });\n  // step 7: unroute /api/x\n  await page.context().unroute(route2);\n});\n") {
		t.Errorf("the last group is not closed before the step after it:\n%s", s.Text)
	}
	plain := convert(t, steps("  - click: '#pick'\n  - upload: {paths: [/tmp/b.txt]}\n"), Options{})
	if strings.Contains(plain.Text, "let ") || !strings.Contains(plain.Text, "const chooser1 = page.waitForEvent('filechooser');") {
		t.Errorf("a flow without groups:\n%s", plain.Text)
	}
}

// TestConvert_Request: a request step is page.request with its headers and
// JSON body (a variable read with env()), then its expectations: the
// status given or toBeOK, a text the body contains, JSON it matches.
func TestConvert_Request(t *testing.T) {
	s := convert(t, steps(`  - request: /api/health
  - request:
      method: post
      url: /api/items
      headers: {Authorization: 'Bearer ${API_TOKEN}'}
      json: {name: milk, tags: [a, b], qty: 2, done: false, note: null}
      expect: {status: 201, body: {item: {name: milk}}}
  - request: {url: 'http://other.test/x', method: OPTIONS, expect: {body: ok}}
  - request: {url: /api/count, expect: {body: 3}}
`), Options{})
	for _, want := range []string{
		"const response1 = await page.request.get('/api/health');",
		"await expect(response1, 'GET /api/health').toBeOK();",
		"const response2 = await page.request.post('/api/items', { headers: { 'Authorization': 'Bearer ' + env('API_TOKEN') }, data: { 'done': false, 'name': 'milk', 'note': null, 'qty': 2, 'tags': ['a', 'b'] } });",
		"expect(response2.status(), 'POST /api/items').toBe(201);",
		"expect(await response2.json(), 'POST /api/items').toMatchObject({ 'item': { 'name': 'milk' } });",
		"const response3 = await page.request.fetch('http://other.test/x', { method: 'OPTIONS' });",
		"expect(await response3.text(), 'OPTIONS http://other.test/x').toContain('ok');",
		"expect(await response4.json(), 'GET /api/count').toEqual(3);",
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("missing %s in\n%s", want, s.Text)
		}
	}
	if len(s.Env) != 1 || s.Env[0] != "API_TOKEN" {
		t.Errorf("env: %v", s.Env)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings: %v", s.Warnings)
	}
}

// TestConvert_Actors: each actor is a context of the test's browser with
// the project's baseURL and a page of its own; its steps run in a block
// where page is its page (a group's steps too), what a step answers is
// registered on its actor's page, and the contexts close at the end.
func TestConvert_Actors(t *testing.T) {
	s := convert(t, steps(`  - navigate: /chat.html
  - navigate: /chat.html
    actor: bob
  - group: Bob says hello
    actor: bob
    steps:
      - fill: {target: label=Message, text: Hello}
      - click: 'role=button[name="Send"]'
  - dialog: {accept: true}
    actor: bob
  - expect: {target: role=listitem, check: text, expected: 'bob: Hello'}
`), Options{})
	t.Log(s.Text)
	for _, want := range []string{
		"test('t', async ({ page, browser, baseURL }) => {",
		"  const bobContext = await browser.newContext({ baseURL });\n  const bobPage = await bobContext.newPage();\n",
		"  // step 1: navigate /chat.html\n  await page.goto('/chat.html');\n",
		"  // step 2: (bob) navigate /chat.html\n  {\n    const page = bobPage; // as bob\n    await page.goto('/chat.html');\n  }\n",
		"  await test.step('Bob says hello', async () => {\n    // step 3: (bob) fill label=Message\n    {\n      const page = bobPage; // as bob\n      await page.getByLabel('Message').fill('Hello');\n    }\n",
		// step 5's dialog is answered on bob's page, registered before step 4.
		"    {\n      const page = bobPage; // as bob\n      page.once('dialog', (dialog) => { void dialog.accept(); });\n    }\n",
		"  // step 6: expect role=listitem\n  await expect(page.getByRole('listitem')).toContainText('bob: Hello');\n",
		"  await bobContext.close();\n});\n",
	} {
		if !strings.Contains(s.Text, want) {
			t.Errorf("missing\n%s", want)
		}
	}
}

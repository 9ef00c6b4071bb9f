package mcptools

import "testing"

func TestBaselineName(t *testing.T) {
	for _, tc := range []struct{ given, url, target, want string }{
		{"", "http://localhost:3000/", "", "index"},
		{"", "http://localhost:3000/shop/pricing.html?plan=pro#top", "", "shop-pricing"},
		{"", "http://localhost:3000/shop/", `role=button[name="Buy"]`, "shop-role-button-name-Buy"},
		{"", "about:blank", "", "index"},
		{"pro-card.png", "http://x/", "", "pro-card"},
		{"v2.hero_dark", "http://x/", "", "v2.hero_dark"},
	} {
		got, err := baselineName(tc.given, tc.url, tc.target)
		if err != nil || got != tc.want {
			t.Errorf("baselineName(%q, %q, %q) = %q, %v; want %q", tc.given, tc.url, tc.target, got, err, tc.want)
		}
	}
	for _, bad := range []string{"../up", "a/b", ".hidden", "a..b", "sp ace"} {
		if _, err := baselineName(bad, "http://x/", ""); err == nil {
			t.Errorf("baselineName(%q) is accepted", bad)
		}
	}
}

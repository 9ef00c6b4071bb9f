module github.com/e2e-mcp/e2e-mcp

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.2
	github.com/chromedp/chromedp v0.23.0
	github.com/mark3labs/mcp-go v1.2.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	go.uber.org/zap v1.28.0
	golang.org/x/text v0.14.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.uber.org/multierr v1.10.0 // indirect
)
